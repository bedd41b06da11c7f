ALTER TABLE `price_alerts` ADD `last_notified_price_pence` integer;--> statement-breakpoint
ALTER TABLE `price_alerts` ADD `claim_token` text;--> statement-breakpoint
ALTER TABLE `price_alerts` ADD `claimed_at` text;