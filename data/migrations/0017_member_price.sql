ALTER TABLE `product_prices` ADD `member_price_pence` integer;--> statement-breakpoint
ALTER TABLE `product_prices` ADD `member_scheme` text;