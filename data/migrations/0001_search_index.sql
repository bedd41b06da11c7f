-- Full-text search over products: name, brand, category name and description (DECISIONS.md).
-- Apostrophes are dropped before indexing so "Hill's" is the token "hills" and "hills" or
-- "hill" (as a prefix) both find it; queries are normalised the same way (data/domain/search.ts).
CREATE VIRTUAL TABLE `product_search` USING fts5(
  `name`, `brand`, `category`, `description`,
  tokenize = 'unicode61 remove_diacritics 2',
  prefix = '2 3 4'
);
--> statement-breakpoint
CREATE TRIGGER `product_search_ai` AFTER INSERT ON `products` BEGIN
  INSERT INTO `product_search` (rowid, `name`, `brand`, `category`, `description`) VALUES (
    new.`id`,
    replace(replace(new.`name`, '''', ''), '’', ''),
    replace(replace(coalesce(new.`brand`, ''), '''', ''), '’', ''),
    (SELECT replace(replace(`name`, '''', ''), '’', '') FROM `categories` WHERE `id` = new.`category_id`),
    replace(replace(new.`description`, '''', ''), '’', '')
  );
END;
--> statement-breakpoint
CREATE TRIGGER `product_search_ad` AFTER DELETE ON `products` BEGIN
  DELETE FROM `product_search` WHERE rowid = old.`id`;
END;
--> statement-breakpoint
CREATE TRIGGER `product_search_au` AFTER UPDATE OF `name`, `brand`, `category_id`, `description` ON `products` BEGIN
  DELETE FROM `product_search` WHERE rowid = old.`id`;
  INSERT INTO `product_search` (rowid, `name`, `brand`, `category`, `description`) VALUES (
    new.`id`,
    replace(replace(new.`name`, '''', ''), '’', ''),
    replace(replace(coalesce(new.`brand`, ''), '''', ''), '’', ''),
    (SELECT replace(replace(`name`, '''', ''), '’', '') FROM `categories` WHERE `id` = new.`category_id`),
    replace(replace(new.`description`, '''', ''), '’', '')
  );
END;
--> statement-breakpoint
CREATE TRIGGER `product_search_category_au` AFTER UPDATE OF `name` ON `categories` BEGIN
  UPDATE `product_search` SET `category` = replace(replace(new.`name`, '''', ''), '’', '')
  WHERE rowid IN (SELECT `id` FROM `products` WHERE `category_id` = new.`id`);
END;
