CREATE TABLE `feed_import_runs` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`source_id` integer,
	`source_key` text NOT NULL,
	`source_label` text NOT NULL,
	`trigger` text NOT NULL,
	`status` text NOT NULL,
	`queued_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`started_at` text,
	`finished_at` text,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`rows_read` integer DEFAULT 0 NOT NULL,
	`matched` integer DEFAULT 0 NOT NULL,
	`created` integer DEFAULT 0 NOT NULL,
	`offers_added` integer DEFAULT 0 NOT NULL,
	`prices_changed` integer DEFAULT 0 NOT NULL,
	`held` integer DEFAULT 0 NOT NULL,
	`unmatched` integer DEFAULT 0 NOT NULL,
	`refused` text DEFAULT '{}' NOT NULL,
	`messages` text DEFAULT '[]' NOT NULL,
	`total_messages` integer DEFAULT 0 NOT NULL,
	`error` text,
	FOREIGN KEY (`source_id`) REFERENCES `feed_sources`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "feed_import_runs_status" CHECK("feed_import_runs"."status" IN ('queued', 'running', 'succeeded', 'failed')),
	CONSTRAINT "feed_import_runs_trigger" CHECK("feed_import_runs"."trigger" IN ('schedule', 'admin', 'cli'))
);
--> statement-breakpoint
CREATE INDEX `feed_import_runs_source_idx` ON `feed_import_runs` (`source_key`,`id`);--> statement-breakpoint
CREATE INDEX `feed_import_runs_source_id_idx` ON `feed_import_runs` (`source_id`);--> statement-breakpoint
CREATE TABLE `feed_sources` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`kind` text NOT NULL,
	`url` text,
	`file_name` text,
	`stored_file` text,
	`file_bytes` integer,
	`layout` text DEFAULT 'auto' NOT NULL,
	`mapping` text,
	`retailer_key` text,
	`create_products` integer DEFAULT false NOT NULL,
	`schedule` text,
	`enabled` integer DEFAULT true NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	CONSTRAINT "feed_sources_kind" CHECK("feed_sources"."kind" IN ('url', 'file'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `feed_sources_name_unique` ON `feed_sources` (`name`);