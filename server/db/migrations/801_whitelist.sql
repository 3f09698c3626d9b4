-- The shop's whitelist (spec section 6, WHITELIST_USER_DENIED): a student the shop has taken off
-- it may not log in, and a session they already hold is refused on every student operation (403
-- WHITELIST_USER_DENIED; the page shows the sign-out modal). Null: on the whitelist (everyone by
-- default). Set and cleared from the back office (POST /admin/api/students/:id/off-whitelist | /on-whitelist).
ALTER TABLE users ADD COLUMN off_whitelist_at timestamptz;
