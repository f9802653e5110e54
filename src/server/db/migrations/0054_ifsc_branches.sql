-- Issue 31, section 4 (decision 067): the IFSC API's answer for each code, asked once; the bank account's
-- branch_name column (already there, decision 044) is filled from it.
CREATE TABLE "ifsc_branches" (
	"ifsc_code" text PRIMARY KEY NOT NULL,
	"found" boolean NOT NULL,
	"branch_name" text,
	"city" text,
	"asked_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ifsc_branches_code_shape" CHECK ("ifsc_code" ~ '^[A-Z]{4}0[A-Z0-9]{6}$'),
	CONSTRAINT "ifsc_branches_branch_length" CHECK ("branch_name" is null or char_length("branch_name") between 1 and 200),
	CONSTRAINT "ifsc_branches_city_length" CHECK ("city" is null or char_length("city") between 1 and 100),
	CONSTRAINT "ifsc_branches_found_has_branch" CHECK ("found" or ("branch_name" is null and "city" is null))
);
