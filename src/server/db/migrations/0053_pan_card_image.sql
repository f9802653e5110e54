-- Issue 32 (decisions 050, 066): with no KYC provider, or when the provider could not answer, the admin who verifies a
-- PAN checks it against a photo of the PAN card, stored like the level 2 documents (encrypted, purpose 'pan_card').
ALTER TABLE "kyc_images" DROP CONSTRAINT "kyc_images_purpose_valid";
--> statement-breakpoint
ALTER TABLE "kyc_images" ADD CONSTRAINT "kyc_images_purpose_valid" CHECK ("purpose" in ('document_front', 'document_back', 'selfie', 'pan_card'));
--> statement-breakpoint
ALTER TABLE "kyc_records" ADD COLUMN "pan_card_image_id" uuid REFERENCES "kyc_images"("id");
--> statement-breakpoint
-- The reason the desk gave when it asked for the card's photo again; cleared by the next photo.
ALTER TABLE "kyc_records" ADD COLUMN "pan_card_request_reason" text;
--> statement-breakpoint
ALTER TABLE "kyc_records" ADD CONSTRAINT "kyc_records_pan_card_request_reason_length" CHECK ("pan_card_request_reason" is null or char_length("pan_card_request_reason") between 1 and 500);
