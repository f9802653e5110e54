import type { FilePurpose, StoredFileView } from '#shared/contracts/settings';
import type { storedFiles } from '../../db/schema.ts';
import type { DepositNetwork } from '#shared/contracts/enums';

export const QR_PURPOSE_OF_NETWORK: Record<DepositNetwork, FilePurpose> = { TRC20: 'qr_trc20', ERC20: 'qr_erc20' };

/**
 * The public address of the current file of a purpose. The file id in the query
 * makes a replaced file a new URL, so no browser keeps showing the old image.
 */
export function publicFileUrl(purpose: FilePurpose, fileId: string): string {
  const path = purpose === 'apk' ? '/api/files/apk' : `/api/files/qr/${purpose === 'qr_trc20' ? 'TRC20' : 'ERC20'}`;
  return `${path}?v=${fileId}`;
}

export function storedFileView(row: typeof storedFiles.$inferSelect): StoredFileView {
  return {
    id: row.id,
    purpose: row.purpose,
    originalName: row.originalName,
    contentType: row.contentType,
    sizeBytes: row.sizeBytes,
    sha256: row.sha256,
    url: publicFileUrl(row.purpose, row.id),
    uploadedAt: row.createdAt.toISOString(),
  };
}
