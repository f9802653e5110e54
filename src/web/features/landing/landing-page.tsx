import { Link } from 'react-router';
import { PRODUCT_NAME, PRODUCT_TAGLINE } from '../../../shared/limits.ts';
import { Button } from '../../components/ui/button.tsx';

export default function LandingPage() {
  return (
    <div className="flex min-h-screen flex-col">
      <header className="mx-auto flex w-full max-w-5xl items-center justify-between px-4 py-4">
        <span className="flex items-center gap-2 text-lg font-bold text-brand-800">
          <span className="flex size-8 items-center justify-center rounded-lg bg-brand-700 text-white">&#8377;</span>
          {PRODUCT_NAME}
        </span>
        <nav className="flex gap-2">
          <Button variant="outline" size="sm" asChild>
            <Link to="/login">Login</Link>
          </Button>
          <Button size="sm" asChild>
            <Link to="/signup">Sign Up</Link>
          </Button>
        </nav>
      </header>
      <main className="mx-auto flex w-full max-w-5xl flex-1 flex-col items-center justify-center gap-6 px-4 text-center">
        <h1 className="text-3xl font-bold sm:text-5xl">Turn USDT into rupees, straight to your bank</h1>
        <p className="max-w-xl text-slate-600">{PRODUCT_TAGLINE}</p>
        <Button size="lg" asChild>
          <Link to="/signup">Get Started</Link>
        </Button>
      </main>
    </div>
  );
}
