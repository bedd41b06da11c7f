-- Hand-corrected: drizzle-kit split the coalesce() expression of the per-kg index at its comma, and
-- copied the new alert columns from the old table, which lacks them (existing alerts are target alerts).
PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_price_alerts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` text NOT NULL,
	`product_id` integer NOT NULL,
	`kind` text DEFAULT 'target' NOT NULL,
	`target_price_pence` integer,
	`drop_percent` integer,
	`reference_price_pence` integer,
	`last_in_stock` integer,
	`email` text NOT NULL,
	`is_active` integer DEFAULT true NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`last_notified_at` text,
	`last_notified_price_pence` integer,
	`claim_token` text,
	`claimed_at` text,
	`confirmed_at` text,
	FOREIGN KEY (`product_id`) REFERENCES `products`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "price_alerts_kind_ck" CHECK("__new_price_alerts"."kind" IN ('target', 'drop', 'back-in-stock', 'lowest-90')),
	CONSTRAINT "price_alerts_target_ck" CHECK(("__new_price_alerts"."kind" = 'target') = ("__new_price_alerts"."target_price_pence" IS NOT NULL)),
	CONSTRAINT "price_alerts_drop_ck" CHECK(("__new_price_alerts"."kind" = 'drop') = ("__new_price_alerts"."drop_percent" IS NOT NULL) AND ("__new_price_alerts"."drop_percent" IS NULL OR "__new_price_alerts"."drop_percent" BETWEEN 1 AND 99))
);
--> statement-breakpoint
INSERT INTO `__new_price_alerts`("id", "user_id", "product_id", "kind", "target_price_pence", "email", "is_active", "created_at", "last_notified_at", "last_notified_price_pence", "claim_token", "claimed_at", "confirmed_at") SELECT "id", "user_id", "product_id", 'target', "target_price_pence", "email", "is_active", "created_at", "last_notified_at", "last_notified_price_pence", "claim_token", "claimed_at", "confirmed_at" FROM `price_alerts`;--> statement-breakpoint
DROP TABLE `price_alerts`;--> statement-breakpoint
ALTER TABLE `__new_price_alerts` RENAME TO `price_alerts`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE INDEX `price_alerts_user_idx` ON `price_alerts` (`user_id`);--> statement-breakpoint
CREATE INDEX `price_alerts_product_idx` ON `price_alerts` (`product_id`,`is_active`);--> statement-breakpoint
CREATE INDEX `price_alerts_email_user_idx` ON `price_alerts` (`email`,`user_id`);--> statement-breakpoint
ALTER TABLE `favorites` ADD `saved_price_pence` integer;--> statement-breakpoint
ALTER TABLE `product_prices` ADD `repeat_price_pence` integer;--> statement-breakpoint
ALTER TABLE `product_prices` ADD `repeat_terms` text;--> statement-breakpoint
ALTER TABLE `products` ADD `best_price_per_kg_pence` integer;--> statement-breakpoint
ALTER TABLE `products` ADD `family_key` text;--> statement-breakpoint
ALTER TABLE `products` ADD `kcal_per_kg` integer;--> statement-breakpoint
ALTER TABLE `products` ADD `feeding_guide` text;--> statement-breakpoint
CREATE INDEX `products_family_idx` ON `products` (`family_key`);--> statement-breakpoint
CREATE INDEX `products_category_price_per_kg_idx` ON `products` (`category_id`,(coalesce("best_price_per_kg_pence", 9007199254740991)),`rank`);