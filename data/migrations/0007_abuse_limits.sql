CREATE TABLE `voucher_uses` (
	`voucher_id` integer NOT NULL,
	`user_id` text NOT NULL,
	`day` text NOT NULL,
	PRIMARY KEY(`voucher_id`, `user_id`, `day`),
	FOREIGN KEY (`voucher_id`) REFERENCES `vouchers`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `voucher_uses_day_idx` ON `voucher_uses` (`day`);--> statement-breakpoint
CREATE INDEX `user_behaviour_user_time_idx` ON `user_behaviour` (`user_id`,`timestamp`);