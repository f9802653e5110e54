import { useState } from 'react';
import type { SignupGeolocation } from '#shared/contracts/signup-trail';

/**
 * Where the customer is, when they allow the browser to tell (FIU-IND wants it recorded); refusing or an
 * unknown position is an answer too. Kept free of zod so that the sign-up page's first visit can use it.
 */
function askBrowserPosition(): Promise<SignupGeolocation> {
  if (!('geolocation' in navigator)) return Promise.resolve({ status: 'unavailable' });
  return new Promise((resolve) => {
    navigator.geolocation.getCurrentPosition(
      (position) =>
        resolve({
          status: 'granted',
          latitude: position.coords.latitude,
          longitude: position.coords.longitude,
          accuracyMeters: Math.min(position.coords.accuracy, 1_000_000),
        }),
      (error) => resolve({ status: error.code === error.PERMISSION_DENIED ? 'denied' : 'unavailable' }),
      { timeout: 10_000, maximumAge: 60_000 },
    );
  });
}

/** The asking state of a "share where you are" button: `share` asks the browser and hands the answer to `onChange`. */
export function useBrowserPositionAsk(onChange: (geolocation: SignupGeolocation) => void): { asking: boolean; share: () => void } {
  const [asking, setAsking] = useState(false);
  const share = () => {
    setAsking(true);
    void askBrowserPosition().then((position) => {
      setAsking(false);
      onChange(position);
    });
  };
  return { asking, share };
}
