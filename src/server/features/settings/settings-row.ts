import type { adminSettings } from '../../db/schema.ts';

/** The single settings row as the database holds it: what the repository reads and the service and other features use. */
export type SettingsRow = typeof adminSettings.$inferSelect;

/** The settings columns that name a stored file: the two deposit QR images and the app's APK. */
export type SettingsFileColumn = 'trc20QrFileId' | 'erc20QrFileId' | 'apkFileId';
