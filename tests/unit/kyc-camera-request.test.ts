import { describe, expect, it } from 'vitest';
import { requestCamera } from '../../src/web/features/kyc/camera-request.ts';

// The selfie step's camera request: a camera allowed after Stop was pressed is turned off at once.
function fakeStream() {
  const tracks = [
    {
      stopped: false,
      stop() {
        this.stopped = true;
      },
    },
  ];
  return { tracks, getTracks: () => tracks };
}

describe('the selfie step’s camera request', () => {
  it('answers the stream while the step still wants it', async () => {
    const stream = fakeStream();
    expect(
      await requestCamera(
        async () => stream,
        () => true,
      ),
    ).toBe(stream);
    expect(stream.tracks[0]?.stopped).toBe(false);
  });

  it('turns off a camera allowed after Stop was pressed during the permission prompt', async () => {
    const stream = fakeStream();
    let wanted = true;
    let allow: (value: typeof stream) => void = () => undefined;
    const asked = requestCamera(
      () => new Promise<typeof stream>((resolve) => (allow = resolve)),
      () => wanted,
    );
    wanted = false; // Stop pressed while the prompt is open.
    allow(stream); // The customer allows the camera afterwards.
    expect(await asked).toBeUndefined();
    expect(stream.tracks[0]?.stopped).toBe(true);
  });
});
