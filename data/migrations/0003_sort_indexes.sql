-- Hand-corrected: drizzle-kit split the coalesce() expression at its comma.
DROP INDEX `products_category_price_idx`;--> statement-breakpoint
DROP INDEX `products_price_idx`;--> statement-breakpoint
CREATE INDEX `products_category_price_asc_idx` ON `products` (`category_id`,(coalesce("best_price_pence", 9007199254740991)),`rank`);--> statement-breakpoint
CREATE INDEX `products_price_asc_idx` ON `products` ((coalesce("best_price_pence", 9007199254740991)),`rank`);--> statement-breakpoint
CREATE INDEX `products_category_price_desc_idx` ON `products` (`category_id`,"best_price_pence" DESC,`rank`);--> statement-breakpoint
CREATE INDEX `products_price_desc_idx` ON `products` ("best_price_pence" DESC,`rank`);--> statement-breakpoint
CREATE INDEX `products_category_rating_idx` ON `products` (`category_id`,"rating" DESC,"review_count" DESC,`rank`);--> statement-breakpoint
CREATE INDEX `products_rating_idx` ON `products` ("rating" DESC,"review_count" DESC,`rank`);--> statement-breakpoint
CREATE INDEX `products_category_savings_idx` ON `products` (`category_id`,(CASE WHEN "original_price_pence" > "best_price_pence" THEN ("original_price_pence" - "best_price_pence") * 1.0 / "original_price_pence" ELSE 0 END) DESC,`rank`);--> statement-breakpoint
CREATE INDEX `products_savings_idx` ON `products` ((CASE WHEN "original_price_pence" > "best_price_pence" THEN ("original_price_pence" - "best_price_pence") * 1.0 / "original_price_pence" ELSE 0 END) DESC,`rank`);