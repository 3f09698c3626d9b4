-- Core schema: site, users & sessions, catalogue, pricing, coupons & promotions, payment methods,
-- carts, orders, idempotency, uploads. Money: bigint minor units (satang / cents). Times: timestamptz (UTC).

CREATE TABLE site_settings (
  id integer PRIMARY KEY,
  data jsonb NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE user_groups (
  id serial PRIMARY KEY,
  name text NOT NULL,
  is_default boolean NOT NULL DEFAULT false
);

CREATE TABLE users (
  id serial PRIMARY KEY,
  role text NOT NULL CHECK (role IN ('student', 'instructor')),
  username text,
  email text NOT NULL,
  password_hash text,
  is_member boolean NOT NULL DEFAULT true,
  firstname text NOT NULL DEFAULT '',
  lastname text NOT NULL DEFAULT '',
  firstname_eng text,
  lastname_eng text,
  nickname text,
  tel text,
  address text,
  age integer,
  user_group_id integer REFERENCES user_groups(id),
  custom_label jsonb,
  profile jsonb NOT NULL DEFAULT '{}'::jsonb,
  display_img_url text,
  is_require_tax_invoice boolean NOT NULL DEFAULT false,
  tax_person_type text,
  tax_name_one text,
  tax_name_two text,
  tax_payer_identification_no text,
  tax_address text,
  tax_is_delivery_by_tax_address boolean NOT NULL DEFAULT true,
  tax_delivery_address text,
  tax_company_certificate text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX users_username_key ON users (lower(username)) WHERE username IS NOT NULL;
CREATE UNIQUE INDEX users_email_key ON users (role, lower(email)) WHERE is_member;
CREATE INDEX users_created_at_idx ON users (created_at);

CREATE TABLE sessions (
  id_hash text PRIMARY KEY,
  user_id integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  role text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL
);
CREATE INDEX sessions_user_idx ON sessions (user_id);

CREATE TABLE shipping_addresses (
  id serial PRIMARY KEY,
  user_id integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  name text NOT NULL,
  tel text NOT NULL,
  address text NOT NULL,
  sub_district text NOT NULL,
  district text NOT NULL,
  province text NOT NULL,
  postcode text NOT NULL,
  is_default boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE categories (
  id serial PRIMARY KEY,
  name text NOT NULL,
  name_eng text,
  link_path text NOT NULL UNIQUE
);

-- Courses and physical products (course_type 'Product' / 'Book') share one table: cart lines and
-- order lines reference both by course id.
CREATE TABLE courses (
  id serial PRIMARY KEY,
  course_type text NOT NULL,
  is_product boolean NOT NULL DEFAULT false,
  name text NOT NULL,
  name_eng text,
  link_path text NOT NULL,
  category_id integer REFERENCES categories(id),
  instructor_id integer REFERENCES users(id),
  short_description text,
  description text,
  image text,
  image_detail jsonb NOT NULL DEFAULT '[]'::jsonb,
  preview jsonb NOT NULL DEFAULT '{}'::jsonb,
  meta_title text,
  meta_description text,
  curriculum jsonb NOT NULL DEFAULT '[]'::jsonb,
  seats integer,               -- seats left (In-class); null = not limited
  seats_total integer,
  stock integer,               -- stock left (physical products); null = not limited
  start_reg_date timestamptz,
  end_reg_date timestamptz,
  start_date timestamptz,
  end_date timestamptz,
  requires_shipping boolean NOT NULL DEFAULT false,
  is_course_access boolean NOT NULL DEFAULT false, -- access restricted to user groups
  user_group_ids integer[] NOT NULL DEFAULT '{}',
  layout_course_detail integer,
  is_layout_course_registration boolean,
  is_bestseller boolean NOT NULL DEFAULT false,
  upload_video_type text,
  status integer NOT NULL DEFAULT 1,
  sort integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now(),
  CHECK (seats IS NULL OR seats >= 0),
  CHECK (stock IS NULL OR stock >= 0)
);
CREATE INDEX courses_type_idx ON courses (is_product, status);

CREATE TABLE sections (
  id serial PRIMARY KEY,
  course_id integer NOT NULL REFERENCES courses(id) ON DELETE CASCADE,
  name text NOT NULL,
  location integer NOT NULL DEFAULT 0
);

CREATE TABLE lectures (
  id serial PRIMARY KEY,
  section_id integer NOT NULL REFERENCES sections(id) ON DELETE CASCADE,
  course_id integer NOT NULL REFERENCES courses(id) ON DELETE CASCADE,
  name text NOT NULL,
  location integer NOT NULL DEFAULT 0,
  content_type text NOT NULL,          -- video, document, text, quiz, homework, audio, link
  content_file text,
  content_text text,
  preview boolean NOT NULL DEFAULT false,
  quiz_id integer,
  quiz_is_require_all_answer boolean NOT NULL DEFAULT false,
  quiz_is_pass_to_complete boolean NOT NULL DEFAULT false,
  homework_id integer,
  check_pass_quiz boolean NOT NULL DEFAULT false,
  score_pass_quiz integer,
  quiz_integrate_type text,
  is_quiz_integrate_not_pass_reset_progress boolean NOT NULL DEFAULT false,
  video_id integer,
  video_name text,
  video_url text,
  video_length integer               -- seconds
);
CREATE INDEX lectures_course_idx ON lectures (course_id);

CREATE TABLE lecture_progress (
  user_id integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  course_id integer NOT NULL REFERENCES courses(id) ON DELETE CASCADE,
  lecture_id integer NOT NULL REFERENCES lectures(id) ON DELETE CASCADE,
  section_id integer NOT NULL,
  is_complete boolean NOT NULL DEFAULT false,
  progress_seconds integer NOT NULL DEFAULT 0,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, lecture_id)
);

CREATE TABLE pricing_plans (
  id serial PRIMARY KEY,
  course_id integer NOT NULL REFERENCES courses(id) ON DELETE CASCADE,
  name text NOT NULL,
  plan_type text NOT NULL,                  -- Period, Actual, One-Time Payment, Free
  term integer,
  term_unit text,
  term_2 integer,
  term_unit_2 text,
  price bigint NOT NULL DEFAULT 0,
  price_usd bigint,
  pricing_type text NOT NULL DEFAULT 'default', -- default | renew
  status_show integer NOT NULL DEFAULT 1,
  free_for text,
  free_course_ids text NOT NULL DEFAULT '',
  buy_course_free boolean NOT NULL DEFAULT false,
  need_approval boolean NOT NULL DEFAULT false,
  is_default boolean NOT NULL DEFAULT false,
  is_for_member boolean NOT NULL DEFAULT false,
  reference_code text,
  reference_id integer,
  value text,
  sort integer NOT NULL DEFAULT 0
);
CREATE INDEX pricing_plans_course_idx ON pricing_plans (course_id);

CREATE TABLE shipping_fees (
  id serial PRIMARY KEY,
  name text NOT NULL,
  fee bigint NOT NULL DEFAULT 0,
  fee_usd bigint,
  course_ids integer[] NOT NULL DEFAULT '{}'   -- empty = every product
);

CREATE TABLE payment_methods (
  id integer PRIMARY KEY,
  name text NOT NULL,
  name_web text,
  payment_type text NOT NULL,
  application_id_1 text,
  application_id_2 text,
  is_active boolean NOT NULL DEFAULT true,
  sort integer NOT NULL DEFAULT 0
);

CREATE TABLE bank_accounts (
  id serial PRIMARY KEY,
  payment_method_id integer NOT NULL REFERENCES payment_methods(id),
  account_id text NOT NULL,
  account_name text NOT NULL,
  bank text NOT NULL,
  bank_name text NOT NULL,
  prompt_pay_image text
);

CREATE TABLE bank_codes (
  banktransfer_value text PRIMARY KEY,
  banktransfer_nameth text NOT NULL,
  sort integer NOT NULL DEFAULT 0
);

CREATE TABLE coupons (
  id serial PRIMARY KEY,
  code text NOT NULL,
  name text,
  coupon_type text NOT NULL CHECK (coupon_type IN ('P1', 'P2')),
  number_of_course integer,
  courses integer[] NOT NULL DEFAULT '{}',
  payment_method integer[] NOT NULL DEFAULT '{}',
  discount_type text NOT NULL CHECK (discount_type IN ('amount', 'percent')),
  discount_amont bigint NOT NULL,        -- percent, or minor units (THB)
  discount_amount_usd bigint,
  usage_limit integer,                   -- null = unlimited
  used_count integer NOT NULL DEFAULT 0,
  starts_at timestamptz,
  ends_at timestamptz,
  status integer NOT NULL DEFAULT 1,
  CHECK (usage_limit IS NULL OR used_count <= usage_limit)
);
CREATE UNIQUE INDEX coupons_code_key ON coupons (lower(code));

CREATE TABLE promotions (
  id serial PRIMARY KEY,
  title text NOT NULL,
  description_list jsonb NOT NULL DEFAULT '[]'::jsonb,
  promotion_type text NOT NULL CHECK (promotion_type IN ('P1', 'P2')),
  courses integer[] NOT NULL DEFAULT '{}',
  number_of_course integer,
  discount_type text NOT NULL CHECK (discount_type IN ('amount', 'percent')),
  discount_amont bigint NOT NULL,
  discount_amount_usd bigint,
  starts_at timestamptz,
  ends_at timestamptz,
  status integer NOT NULL DEFAULT 1
);

CREATE TABLE custom_labels (
  id serial PRIMARY KEY,
  type_label text NOT NULL CHECK (type_label IN ('inputtext', 'select', 'multiple', 'checkbox', 'radio', 'image')),
  label text NOT NULL,
  order_label integer NOT NULL DEFAULT 0,
  required integer NOT NULL DEFAULT 0,
  item_list jsonb NOT NULL DEFAULT '[]'::jsonb
);

-- Server-side carts. owner is 'u:<user id>' for a student, 'v:<visitor id>' for an anonymous visitor.
CREATE TABLE carts (
  id serial PRIMARY KEY,
  owner text NOT NULL UNIQUE,
  coupon_ids integer[] NOT NULL DEFAULT '{}',
  payment_method_id integer NOT NULL DEFAULT 1 REFERENCES payment_methods(id),
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE cart_lines (
  id serial PRIMARY KEY,
  cart_id integer NOT NULL REFERENCES carts(id) ON DELETE CASCADE,
  course_id integer NOT NULL REFERENCES courses(id) ON DELETE CASCADE,
  pricing_plan_id integer NOT NULL REFERENCES pricing_plans(id) ON DELETE CASCADE,
  qty integer NOT NULL DEFAULT 1 CHECK (qty > 0),
  position integer NOT NULL DEFAULT 0,
  UNIQUE (cart_id, course_id)
);

CREATE TABLE orders (
  id serial PRIMARY KEY,
  order_token text NOT NULL UNIQUE,
  user_id integer NOT NULL REFERENCES users(id),
  status text NOT NULL DEFAULT 'notYetReceived',  -- notYetReceived | pendingApproved | approved | rejected | cancelled
  payment_status text NOT NULL DEFAULT 'notYetReceived', -- notYetReceived | pendingApproved | approved | rejected
  currency_code text NOT NULL CHECK (currency_code IN ('THB', 'USD')),
  payment_method_id integer REFERENCES payment_methods(id),
  price bigint NOT NULL,                 -- subtotal of the lines
  discount bigint NOT NULL DEFAULT 0,
  shipping_fee bigint NOT NULL DEFAULT 0,
  withholding_price bigint NOT NULL DEFAULT 0,
  is_withholding boolean NOT NULL DEFAULT false,
  withholding_percent numeric,
  vat_price bigint NOT NULL DEFAULT 0,
  total bigint NOT NULL,                 -- price - discount + shipping_fee - withholding_price
  coupon_ids integer[] NOT NULL DEFAULT '{}',
  coupon_list_code text[] NOT NULL DEFAULT '{}',
  promotion_id integer REFERENCES promotions(id),
  shipping_address_id integer REFERENCES shipping_addresses(id),
  shipping_fee_id integer REFERENCES shipping_fees(id),
  email text,
  tel text,
  is_require_tax_invoice boolean NOT NULL DEFAULT false,
  cancel_at timestamptz,
  cancelled_at timestamptz,
  approved_at timestamptz,
  approve_by text,
  order_payment_id integer,
  reject_reason text,
  is_deleted boolean NOT NULL DEFAULT false,
  resources_released boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX orders_user_idx ON orders (user_id);
CREATE INDEX orders_cancel_idx ON orders (cancel_at) WHERE status = 'notYetReceived';

CREATE TABLE order_courses (
  id serial PRIMARY KEY,
  order_id integer NOT NULL REFERENCES orders(id) ON DELETE CASCADE,
  course_id integer NOT NULL REFERENCES courses(id),
  pricing_plan_id integer REFERENCES pricing_plans(id),
  course_name text NOT NULL,
  course_type text NOT NULL,
  qty integer NOT NULL DEFAULT 1,
  original_pricing_price bigint NOT NULL,
  discount bigint NOT NULL DEFAULT 0,
  price bigint NOT NULL,
  coupon_code text
);
CREATE INDEX order_courses_order_idx ON order_courses (order_id);
CREATE INDEX order_courses_course_idx ON order_courses (course_id);

CREATE TABLE coupon_uses (
  id serial PRIMARY KEY,
  coupon_id integer NOT NULL REFERENCES coupons(id),
  order_id integer NOT NULL REFERENCES orders(id) ON DELETE CASCADE,
  user_id integer NOT NULL REFERENCES users(id),
  released boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX coupon_uses_coupon_idx ON coupon_uses (coupon_id);

CREATE TABLE idempotency_keys (
  user_id integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  key text NOT NULL,
  request_hash text NOT NULL,
  status_code integer,
  response text,                         -- the answer's JSON text, replayed byte for byte
  order_id integer,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, key)
);

CREATE TABLE uploads (
  id serial PRIMARY KEY,
  user_id integer REFERENCES users(id) ON DELETE SET NULL,
  file_name text NOT NULL UNIQUE,
  original_name text NOT NULL,
  mime text NOT NULL,
  size bigint NOT NULL,
  deleted boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE registration_log (
  id serial PRIMARY KEY,
  user_id integer REFERENCES users(id) ON DELETE SET NULL,
  ip text,
  created_at timestamptz NOT NULL DEFAULT now()
);
