-- A buyer may pick only a group marked selectable at registration; a
-- restricted group (a course's access list, staff, partner schools) is assigned by the shop.
ALTER TABLE user_groups ADD COLUMN IF NOT EXISTS is_selectable boolean NOT NULL DEFAULT false;
UPDATE user_groups SET is_selectable = true WHERE is_default;
