-- An index for every lookup of GET course and POST order (EXPLAIN). The others exist
-- already (primary keys, lectures, pricing_plans and orders by course / user, order lines by
-- order, carts by owner); a course's sections were found by a full scan.
CREATE INDEX IF NOT EXISTS sections_course_idx ON sections (course_id, location);
