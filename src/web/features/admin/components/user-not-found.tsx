import { Link } from 'react-router';
import { userNotFoundMessage, USER_NOT_FOUND_TITLE } from '#shared/contracts/admin';
import { Button } from '../../../components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card.tsx';

export function UserNotFound({ userId }: { userId: string }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>{USER_NOT_FOUND_TITLE}</CardTitle>
        <CardDescription>{userNotFoundMessage(userId)}</CardDescription>
      </CardHeader>
      <CardContent>
        <Button variant="outline" asChild>
          <Link to="/admin/users">Back to User Management</Link>
        </Button>
      </CardContent>
    </Card>
  );
}
