/** The support chat link: the stored number with spaces (and the plus sign) removed. */
export function supportChatUrl(whatsappNumber: string): string | undefined {
  const digits = whatsappNumber.replace(/\s+/g, '').replace(/^\+/, '');
  return digits ? `https://wa.me/${digits}` : undefined;
}
