CREATE TABLE `price_holds` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`product_id` integer NOT NULL,
	`retailer_id` integer NOT NULL,
	`published_price_pence` integer,
	`held_price_pence` integer NOT NULL,
	`original_price_pence` integer,
	`delivery_pence` integer,
	`in_stock` integer,
	`source` text NOT NULL,
	`url` text NOT NULL,
	`observed_at` text NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`decided_at` text,
	FOREIGN KEY (`product_id`) REFERENCES `products`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`retailer_id`) REFERENCES `retailers`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `price_holds_status_idx` ON `price_holds` (`status`,`observed_at`);--> statement-breakpoint
CREATE INDEX `price_holds_offer_idx` ON `price_holds` (`product_id`,`retailer_id`,`status`);--> statement-breakpoint
CREATE TABLE `price_refresh_runs` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`started_at` text NOT NULL,
	`finished_at` text,
	`duration_ms` integer,
	`checked` integer DEFAULT 0 NOT NULL,
	`changed` integer DEFAULT 0 NOT NULL,
	`held` integer DEFAULT 0 NOT NULL,
	`failed` integer DEFAULT 0 NOT NULL,
	`result` text NOT NULL,
	`failures` text
);
--> statement-breakpoint
CREATE INDEX `price_refresh_runs_started_idx` ON `price_refresh_runs` (`started_at`);--> statement-breakpoint
ALTER TABLE `product_prices` ADD `delivery_pence` integer;--> statement-breakpoint
ALTER TABLE `product_prices` ADD `last_checked_at` text;--> statement-breakpoint
ALTER TABLE `product_prices` ADD `stale` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `product_prices` ADD `source` text DEFAULT 'manual' NOT NULL;--> statement-breakpoint
-- Existing prices were last confirmed when they were last set.
UPDATE `product_prices` SET `last_checked_at` = `updated_at`;--> statement-breakpoint
CREATE INDEX `product_prices_checked_idx` ON `product_prices` (`stale`,`last_checked_at`);--> statement-breakpoint
ALTER TABLE `products` ADD `gtin` text;--> statement-breakpoint
ALTER TABLE `products` ADD `mpn` text;--> statement-breakpoint
CREATE INDEX `products_gtin_idx` ON `products` (`gtin`);