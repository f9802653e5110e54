-- Issue 31, section 4 (decision 054, amended): a payee's UPI id is validated too, by a validation row of its own
-- whose vpa is the id checked (null on a bank account's penny drop).
ALTER TABLE "payee_validations" ADD COLUMN "vpa" text;
--> statement-breakpoint
ALTER TABLE "payee_validations" ADD CONSTRAINT "payee_validations_vpa_length" CHECK ("vpa" is null or char_length("vpa") between 3 and 321);
