ALTER TABLE `products` ADD `best_delivery_pence` integer;--> statement-breakpoint
ALTER TABLE `retailers` ADD `delivery_pence` integer;--> statement-breakpoint
ALTER TABLE `retailers` ADD `free_delivery_from_pence` integer;