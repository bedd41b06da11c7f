CREATE TABLE `crawl_hosts` (
	`origin` text PRIMARY KEY NOT NULL,
	`robots_txt` text,
	`robots_state` text NOT NULL,
	`robots_fetched_at` text NOT NULL,
	`blocked_until` text,
	`busy_streak` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE `machine_tokens` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`token_hash` text NOT NULL,
	`prefix` text NOT NULL,
	`scopes` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`last_used_at` text,
	`revoked_at` text
);
--> statement-breakpoint
CREATE UNIQUE INDEX `machine_tokens_token_hash_unique` ON `machine_tokens` (`token_hash`);--> statement-breakpoint
CREATE TABLE `nightly_runs` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`trigger` text NOT NULL,
	`status` text NOT NULL,
	`queued_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`started_at` text,
	`finished_at` text,
	`step` text,
	`summary` text DEFAULT '{}' NOT NULL,
	`error` text,
	`release_id` text,
	CONSTRAINT "nightly_runs_status" CHECK("nightly_runs"."status" IN ('queued', 'running', 'succeeded', 'failed'))
);
--> statement-breakpoint
ALTER TABLE `product_prices` ADD `page_etag` text;--> statement-breakpoint
ALTER TABLE `product_prices` ADD `page_last_modified` text;--> statement-breakpoint
ALTER TABLE `products` ADD `demo` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `vouchers` ADD `demo` integer DEFAULT false NOT NULL;