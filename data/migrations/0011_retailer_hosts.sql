ALTER TABLE `price_holds` ADD `new_offer` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `retailers` ADD `hosts` text DEFAULT '[]' NOT NULL;--> statement-breakpoint
ALTER TABLE `retailers` ADD `feed_names` text DEFAULT '[]' NOT NULL;