ALTER TABLE `products` ADD `life_stage` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `products` ADD `food_type` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `products` ADD `main_protein` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `products` ADD `special_diets` text DEFAULT '' NOT NULL;