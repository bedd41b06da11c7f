-- Hand-written: drizzle-kit adds the CHECK constraint by rebuilding the products table, which here
-- would lose data and the search index. The migrator runs inside one transaction, where
-- PRAGMA foreign_keys=OFF does nothing, so DROP TABLE products would cascade-delete every offer,
-- price point, favourite and alert; it also drops the product_search triggers; and its index
-- statements quote the sort expressions as column names. SQLite takes a CHECK on an added column,
-- so the column is added with its constraint (same name and rule as schema.ts), and only the two
-- rating indexes are rebuilt with the new sort key (products without reviews after the rated ones).
ALTER TABLE `products` ADD `legal_category` text DEFAULT 'none' NOT NULL CONSTRAINT "products_legal_category_ck" CHECK("legal_category" IN ('none', 'POM-V', 'POM-VPS', 'NFA-VPS', 'AVM-GSL'));--> statement-breakpoint
DROP INDEX `products_category_rating_idx`;--> statement-breakpoint
DROP INDEX `products_rating_idx`;--> statement-breakpoint
CREATE INDEX `products_category_rating_idx` ON `products` (`category_id`,(CASE WHEN "review_count" > 0 THEN "rating" END) DESC,"review_count" DESC,`rank`);--> statement-breakpoint
CREATE INDEX `products_rating_idx` ON `products` ((CASE WHEN "review_count" > 0 THEN "rating" END) DESC,"review_count" DESC,`rank`);
