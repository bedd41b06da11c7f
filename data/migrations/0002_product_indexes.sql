CREATE INDEX `favorites_product_idx` ON `favorites` (`product_id`);--> statement-breakpoint
CREATE INDEX `product_recommendations_product_idx` ON `product_recommendations` (`product_id`);--> statement-breakpoint
CREATE INDEX `recently_viewed_product_idx` ON `recently_viewed` (`product_id`);--> statement-breakpoint
CREATE INDEX `user_behaviour_product_idx` ON `user_behaviour` (`product_id`);