-- Uploaded files live in the database, so that every app server behind a load balancer serves the same
-- files. Each file is a run of chunks of at most 1 MiB, written and read one chunk at a time.
CREATE TABLE "stored_file_chunks" (
	"storage_key" text NOT NULL,
	"chunk_index" integer NOT NULL,
	"bytes" bytea NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "stored_file_chunks_pk" PRIMARY KEY("storage_key","chunk_index"),
	CONSTRAINT "stored_file_chunks_index_valid" CHECK ("stored_file_chunks"."chunk_index" >= 0),
	CONSTRAINT "stored_file_chunks_size_valid" CHECK (octet_length("stored_file_chunks"."bytes") between 1 and 1048576),
	CONSTRAINT "stored_file_chunks_key_length" CHECK (char_length("stored_file_chunks"."storage_key") between 1 and 200)
);
--> statement-breakpoint
-- Images and APKs are compressed already; PostgreSQL need not try again.
ALTER TABLE "stored_file_chunks" ALTER COLUMN "bytes" SET STORAGE EXTERNAL;
