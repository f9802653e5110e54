/** What the selfie step needs of a camera stream: its tracks, to turn them off. */
export interface StoppableStream {
  getTracks(): { stop(): void }[];
}

/**
 * Asks for the camera and answers its stream, or undefined when the step no longer wants it: Stop pressed or the
 * step left while the browser's permission prompt was open. A stream allowed after that is turned off at once, so
 * the camera does not stay on behind a step that shows nothing.
 */
export async function requestCamera<Stream extends StoppableStream>(ask: () => Promise<Stream>, stillWanted: () => boolean): Promise<Stream | undefined> {
  const stream = await ask();
  if (stillWanted()) return stream;
  for (const track of stream.getTracks()) track.stop();
  return undefined;
}
