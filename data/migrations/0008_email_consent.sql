CREATE TABLE `email_confirmations` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`email` text NOT NULL,
	`purpose` text NOT NULL,
	`user_id` text,
	`token_hash` text NOT NULL,
	`token_seed` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`expires_at` text NOT NULL,
	`sent_at` text,
	`claim_token` text,
	`claimed_at` text,
	`confirmed_at` text,
	CONSTRAINT "email_confirmations_purpose_ck" CHECK("email_confirmations"."purpose" IN ('price-alerts', 'newsletter')),
	CONSTRAINT "email_confirmations_user_ck" CHECK(("email_confirmations"."purpose" = 'newsletter') = ("email_confirmations"."user_id" IS NULL))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `email_confirmations_token_hash_unique` ON `email_confirmations` (`token_hash`);--> statement-breakpoint
CREATE INDEX `email_confirmations_email_idx` ON `email_confirmations` (`email`,`created_at`);--> statement-breakpoint
CREATE INDEX `email_confirmations_expires_idx` ON `email_confirmations` (`expires_at`);--> statement-breakpoint
CREATE TABLE `email_consents` (
	`email` text NOT NULL,
	`user_id` text NOT NULL,
	`confirmed_at` text NOT NULL,
	PRIMARY KEY(`email`, `user_id`)
);
--> statement-breakpoint
ALTER TABLE `email_subscribers` ADD `confirmed_at` text;--> statement-breakpoint
ALTER TABLE `price_alerts` ADD `confirmed_at` text;--> statement-breakpoint
CREATE INDEX `price_alerts_email_user_idx` ON `price_alerts` (`email`,`user_id`);--> statement-breakpoint
-- Alerts and subscriptions made before double opt-in keep working as they did (set up under the old rules; each mail has an unsubscribe link).
UPDATE `price_alerts` SET `confirmed_at` = `created_at`;--> statement-breakpoint
UPDATE `email_subscribers` SET `confirmed_at` = `subscribed_at`;
