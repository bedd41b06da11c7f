CREATE TABLE `affiliate_settings` (
	`key` text PRIMARY KEY NOT NULL,
	`value` text NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
);
--> statement-breakpoint
CREATE TABLE `categories` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`slug` text NOT NULL,
	`icon` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `categories_slug_unique` ON `categories` (`slug`);--> statement-breakpoint
CREATE TABLE `email_subscribers` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`email` text NOT NULL,
	`subscribed_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`is_active` integer DEFAULT true NOT NULL,
	`source` text DEFAULT 'website' NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `email_subscribers_email_unique` ON `email_subscribers` (`email`);--> statement-breakpoint
CREATE TABLE `favorites` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` text NOT NULL,
	`product_id` integer NOT NULL,
	`notes` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`product_id`) REFERENCES `products`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `favorites_user_product_uq` ON `favorites` (`user_id`,`product_id`);--> statement-breakpoint
CREATE TABLE `price_alerts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` text NOT NULL,
	`product_id` integer NOT NULL,
	`target_price_pence` integer NOT NULL,
	`email` text NOT NULL,
	`is_active` integer DEFAULT true NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`last_notified_at` text,
	FOREIGN KEY (`product_id`) REFERENCES `products`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `price_alerts_user_idx` ON `price_alerts` (`user_id`);--> statement-breakpoint
CREATE INDEX `price_alerts_product_idx` ON `price_alerts` (`product_id`,`is_active`);--> statement-breakpoint
CREATE TABLE `price_history` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`product_id` integer NOT NULL,
	`retailer_id` integer NOT NULL,
	`price_pence` integer NOT NULL,
	`recorded_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`product_id`) REFERENCES `products`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`retailer_id`) REFERENCES `retailers`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `price_history_product_idx` ON `price_history` (`product_id`,`recorded_at`);--> statement-breakpoint
CREATE TABLE `product_prices` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`product_id` integer NOT NULL,
	`retailer_id` integer NOT NULL,
	`price_pence` integer NOT NULL,
	`original_price_pence` integer,
	`url` text NOT NULL,
	`in_stock` integer DEFAULT true NOT NULL,
	`free_delivery` integer DEFAULT false NOT NULL,
	`price_override` integer DEFAULT false NOT NULL,
	`manual_price_pence` integer,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`product_id`) REFERENCES `products`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`retailer_id`) REFERENCES `retailers`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "product_prices_price_nonneg" CHECK("product_prices"."price_pence" >= 0)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `product_prices_product_retailer_uq` ON `product_prices` (`product_id`,`retailer_id`);--> statement-breakpoint
CREATE INDEX `product_prices_retailer_idx` ON `product_prices` (`retailer_id`,`product_id`);--> statement-breakpoint
CREATE TABLE `product_recommendations` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` text NOT NULL,
	`product_id` integer NOT NULL,
	`score` real NOT NULL,
	`reason` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`expires_at` text NOT NULL,
	FOREIGN KEY (`product_id`) REFERENCES `products`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `products` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`slug` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`image` text DEFAULT '' NOT NULL,
	`brand` text,
	`category_id` integer NOT NULL,
	`rating` real DEFAULT 4.5 NOT NULL,
	`review_count` integer DEFAULT 0 NOT NULL,
	`best_price_pence` integer,
	`original_price_pence` integer,
	`best_retailer_id` integer,
	`is_featured` integer DEFAULT false NOT NULL,
	`rank` integer DEFAULT 0 NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`last_edited_at` text,
	FOREIGN KEY (`category_id`) REFERENCES `categories`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`best_retailer_id`) REFERENCES `retailers`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "products_rating_range" CHECK("products"."rating" >= 0 AND "products"."rating" <= 5),
	CONSTRAINT "products_review_count_nonneg" CHECK("products"."review_count" >= 0)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `products_slug_unique` ON `products` (`slug`);--> statement-breakpoint
CREATE INDEX `products_category_price_idx` ON `products` (`category_id`,`best_price_pence`);--> statement-breakpoint
CREATE INDEX `products_category_rank_idx` ON `products` (`category_id`,`rank`);--> statement-breakpoint
CREATE INDEX `products_rank_idx` ON `products` (`rank`);--> statement-breakpoint
CREATE INDEX `products_price_idx` ON `products` (`best_price_pence`);--> statement-breakpoint
CREATE INDEX `products_brand_idx` ON `products` (`brand`);--> statement-breakpoint
CREATE INDEX `products_featured_idx` ON `products` (`is_featured`,`rank`);--> statement-breakpoint
CREATE TABLE `recently_viewed` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` text NOT NULL,
	`product_id` integer NOT NULL,
	`viewed_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`product_id`) REFERENCES `products`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `recently_viewed_user_product_uq` ON `recently_viewed` (`user_id`,`product_id`);--> statement-breakpoint
CREATE INDEX `recently_viewed_user_idx` ON `recently_viewed` (`user_id`,`viewed_at`);--> statement-breakpoint
CREATE TABLE `retailers` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`logo` text NOT NULL,
	`website` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `retailers_name_unique` ON `retailers` (`name`);--> statement-breakpoint
CREATE TABLE `user_behaviour` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` text NOT NULL,
	`product_id` integer,
	`action` text NOT NULL,
	`category_id` integer,
	`retailer_id` integer,
	`session_id` text,
	`timestamp` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`metadata` text,
	FOREIGN KEY (`product_id`) REFERENCES `products`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`category_id`) REFERENCES `categories`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`retailer_id`) REFERENCES `retailers`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `user_behaviour_time_idx` ON `user_behaviour` (`timestamp`);--> statement-breakpoint
CREATE TABLE `user_profiles` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` text NOT NULL,
	`category_preferences` text,
	`price_range` text,
	`pet_type` text,
	`activity_level` integer DEFAULT 5 NOT NULL,
	`last_updated` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `user_profiles_user_id_unique` ON `user_profiles` (`user_id`);--> statement-breakpoint
CREATE TABLE `vouchers` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`code` text NOT NULL,
	`description` text NOT NULL,
	`retailer` text NOT NULL,
	`url` text NOT NULL,
	`discount` text NOT NULL,
	`expiry_date` text NOT NULL,
	`uses` integer DEFAULT 0 NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `vouchers_retailer_code_uq` ON `vouchers` (`retailer`,`code`);--> statement-breakpoint
CREATE INDEX `vouchers_expiry_idx` ON `vouchers` (`expiry_date`);