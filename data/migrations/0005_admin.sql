CREATE TABLE `admin_sessions` (
	`token_hash` text PRIMARY KEY NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`last_seen_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `admin_sessions_last_seen_idx` ON `admin_sessions` (`last_seen_at`);--> statement-breakpoint
CREATE TABLE `app_settings` (
	`key` text PRIMARY KEY NOT NULL,
	`value` text NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
);
--> statement-breakpoint
CREATE TABLE `audit_log` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`action` text NOT NULL,
	`entity` text NOT NULL,
	`entity_id` integer,
	`summary` text NOT NULL,
	`before` text,
	`after` text
);
--> statement-breakpoint
CREATE INDEX `audit_log_at_idx` ON `audit_log` (`at`);--> statement-breakpoint
CREATE TABLE `site_builds` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`started_at` text NOT NULL,
	`finished_at` text,
	`duration_ms` integer,
	`kind` text NOT NULL,
	`result` text NOT NULL,
	`release` text,
	`pages` integer,
	`log_tail` text
);
--> statement-breakpoint
CREATE INDEX `site_builds_started_idx` ON `site_builds` (`started_at`);--> statement-breakpoint
ALTER TABLE `categories` ADD `description` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `retailers` ADD `key` text DEFAULT '' NOT NULL;--> statement-breakpoint
-- Existing retailers get a key from their name ("Pets at Home" -> pets-at-home); a clash adds the id.
UPDATE `retailers` SET `key` = lower(replace(replace(replace(trim(`name`), ' ', '-'), '.', '-'), '''', '')) || CASE
  WHEN EXISTS (SELECT 1 FROM `retailers` r2 WHERE r2.`id` < `retailers`.`id` AND lower(replace(replace(replace(trim(r2.`name`), ' ', '-'), '.', '-'), '''', '')) = lower(replace(replace(replace(trim(`retailers`.`name`), ' ', '-'), '.', '-'), '''', '')))
  THEN '-' || `id` ELSE '' END;--> statement-breakpoint
ALTER TABLE `retailers` ADD `description` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `retailers` ADD `compares_prices` integer DEFAULT false NOT NULL;--> statement-breakpoint
-- Retailers that already carry offers are the compared ones.
UPDATE `retailers` SET `compares_prices` = 1 WHERE EXISTS (SELECT 1 FROM `product_prices` pp WHERE pp.`retailer_id` = `retailers`.`id`);--> statement-breakpoint
CREATE UNIQUE INDEX `retailers_key_unique` ON `retailers` (`key`);