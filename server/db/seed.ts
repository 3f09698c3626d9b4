/**
 * The demo shop, in Thai with English where the spec shows it. Rich enough that every rule and
 * layout can be seen: every course type, products with stock and shipping fees, every plan type,
 * coupons P1/P2 percent/amount with payment-method and usage limits, promotions, payment methods
 * with bank accounts and bank codes, custom labels of all six types, user groups, site settings
 * (each layout reachable through a per-course setting), a demo student and an instructor.
 *
 * Demo logins (README "Server"): student / student123, student2 / student123 (a company buyer),
 * teacher / teacher123 (instructor).
 */
import type { Db, Queryable } from './index';
import { hashPassword } from '../auth/password';
import { LOCKS } from './locks';
import { registerFormOf } from '../../domain/forms/registration';

export const DEMO = {
  student: { username: 'student', password: 'student123', email: 'student@example.com' },
  student2: { username: 'student2', password: 'student123', email: 'student2@example.com' },
  instructor: { username: 'teacher', password: 'teacher123', email: 'teacher@example.com' },
} as const;

type Row = Record<string, unknown>;

/** jsonb columns: their values are sent as JSON text (a JS array would become a PostgreSQL array). */
const JSON_COLUMNS = new Set(['data', 'profile', 'custom_label', 'image_detail', 'preview', 'curriculum', 'description_list', 'item_list']);

async function insert(q: Queryable, table: string, row: Row): Promise<number> {
  const cols = Object.keys(row);
  const vals = cols.map((c) => (JSON_COLUMNS.has(c) ? JSON.stringify(row[c]) : row[c]));
  const r = await q.query<{ id: number }>(
    `INSERT INTO ${table} (${cols.join(', ')}) VALUES (${cols.map((_, i) => `$${i + 1}`).join(', ')}) RETURNING *`,
    vals,
  );
  return (r.rows[0] as { id: number } | undefined)?.id ?? 0;
}

const DAY = 86_400_000;

/** Site settings (site 1). Limits for registration live here too. */
export function defaultSiteSettings(): Record<string, unknown> {
  return {
    title: 'โรงเรียนออนไลน์ตัวอย่าง (Demo Online School)',
    vat_value: 7,
    is_enable_vat: true,
    is_enable_tax_invoice: true,
    is_enable_withholding_tax: true,
    layout_course_detail: 3,
    is_layout_course_registration: false,
    registerForm: registerFormOf({ firstname: 'required', lastname: 'required', nickname: 'optional', tel: 'required', address: 'optional', image_profile: 'optional' }),
    is_student_select_group: true,
    auto_cancel: 24,
    is_thank_you_page: true,
    is_require_payment_slip: true,
    is_coupon_promotion_exclusive: true,
    is_one_coupon_only: false,
    is_bookstore_sync_cart: false,
    currency: 'THB',
    course_teacher: true,
    course_group: true,
    course_bestseller: true,
    theme: { photo_favicon: '/favicon.ico' },
    howtobuy: {
      is_enable_howtobuy: true,
      description:
        '<ol><li>เลือกคอร์สและรูปแบบราคาที่ต้องการ (Choose a course and a pricing plan)</li><li>เข้าสู่ระบบหรือสมัครสมาชิก (Log in or register)</li><li>เลือกวิธีชำระเงินและกดสั่งซื้อ (Choose a payment method and order)</li><li>ชำระเงินและแจ้งชำระเงิน (Pay and notify the payment)</li></ol>',
    },
    max_users: 100_000,
    max_registrations_per_day: 500,
    // The seller on receipts and tax invoices (server/documents/settings.ts): demo values.
    seller: {
      name: 'บริษัท โรงเรียนออนไลน์ตัวอย่าง จำกัด',
      name_en: 'Demo Online School Co., Ltd.',
      address: '99/9 อาคารตัวอย่าง ชั้น 9 ถนนพระราม 9 แขวงห้วยขวาง เขตห้วยขวาง กรุงเทพมหานคร 10310',
      address_en: '99/9 Demo Building, 9th floor, Rama 9 Road, Huai Khwang, Bangkok 10310',
      tax_id: '0105556012341',
      branch: '00000',
      tel: '02-000-0000',
      email: 'billing@demo-school.example',
    },
  };
}

const BANK_CODES: [string, string][] = [
  ['BAY', 'ธนาคารกรุงศรีอยุธยา'],
  ['BBL', 'ธนาคารกรุงเทพ'],
  ['GSB', 'ธนาคารออมสิน'],
  ['KBANK', 'ธนาคารกสิกรไทย'],
  ['KTB', 'ธนาคารกรุงไทย'],
  ['NBANK', 'ธนาคารธนชาต'],
  ['SCB', 'ธนาคารไทยพาณิชย์'],
  ['TTB', 'ธนาคารทหารไทยธนชาต'],
  ['TMB', 'ธนาคารทหารไทย'],
  ['ARGI', 'ธนาคารเพื่อการเกษตรและสหกรณ์การเกษตร'],
  ['SACO', 'ธนาคารแลนด์ แอนด์ เฮ้าส์'],
  ['VIETT', 'Vietinbank'],
  ['TECH', 'Techcombank'],
  ['VIETC', 'Vietcombank'],
  ['BIDV', 'BIDV'],
  ['SHB', 'SHB'],
  ['HDB', 'HDBank'],
  ['OCEA', 'OceanBank'],
  ['SAIG', 'Saigonbank'],
  ['VPB', 'VPBank'],
  ['TPB', 'TPBank'],
  ['DONG', 'DongA Bank'],
  ['ACB', 'ACB'],
  ['VIB', 'VIB'],
];

/** Payment methods 1-4 and 8-13 (spec section 9), public identifiers only. */
const PAYMENT_METHODS = [
  { id: 1, name: 'โอนเงินผ่านธนาคาร', name_web: 'โอนเงินผ่านธนาคาร (Bank transfer)', payment_type: 'banktransfer', application_id_1: null, application_id_2: null, sort: 1 },
  { id: 2, name: 'PayPal / บัตรเครดิต', name_web: 'PayPal', payment_type: 'paypal', application_id_1: 'sb-demo-client-id', application_id_2: null, sort: 2 },
  { id: 3, name: 'บัตรเครดิต (2C2P)', name_web: 'Credit card (2C2P)', payment_type: 'creditcard', application_id_1: 'JT01', application_id_2: 'demo-2c2p-public-key', sort: 3 },
  { id: 4, name: 'SCB QR Code', name_web: 'QR Code (SCB)', payment_type: 'qrcode', application_id_1: 'demo-scb-biller', application_id_2: null, sort: 4 },
  { id: 8, name: 'บัตรเครดิต (Omise)', name_web: 'Credit card (Omise)', payment_type: 'creditcard', application_id_1: 'pkey_test_demo_omise', application_id_2: null, sort: 5 },
  { id: 9, name: 'พร้อมเพย์ (Omise)', name_web: 'PromptPay (Omise)', payment_type: 'promptpay', application_id_1: 'pkey_test_demo_omise', application_id_2: null, sort: 6 },
  { id: 10, name: 'ผ่อนชำระ (2C2P)', name_web: 'Installment (2C2P)', payment_type: 'installment', application_id_1: 'JT01', application_id_2: null, sort: 7 },
  { id: 11, name: 'บัตรเครดิต (GB Prime Pay)', name_web: 'Credit card (GB Prime Pay)', payment_type: 'creditcard', application_id_1: 'demo-gbp-public-key', application_id_2: null, sort: 8 },
  { id: 12, name: 'พร้อมเพย์ (GB Prime Pay)', name_web: 'PromptPay (GB Prime Pay)', payment_type: 'promptpay', application_id_1: 'demo-gbp-public-key', application_id_2: null, sort: 9 },
  { id: 13, name: 'PaySolutions', name_web: 'PaySolutions', payment_type: 'creditcard', application_id_1: '12345678', application_id_2: null, sort: 10 },
];
export const ALL_METHODS = PAYMENT_METHODS.map((m) => m.id);

/** Empties every seeded table (keeps the schema and schema_migrations). */
export async function truncateAll(q: Queryable): Promise<void> {
  const r = await q.query<{ tablename: string }>(
    `SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename <> 'schema_migrations'`,
  );
  if (r.rows.length === 0) return;
  await q.query(`TRUNCATE ${r.rows.map((t) => `"${t.tablename}"`).join(', ')} RESTART IDENTITY CASCADE`);
}

export async function isEmpty(db: Queryable): Promise<boolean> {
  const r = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM site_settings');
  return (r.rows[0]?.n ?? 0) === 0;
}

/** Why the demo shop is never seeded under NODE_ENV=production. */
export const DEMO_IN_PRODUCTION =
  'Refusing to seed the demo shop under NODE_ENV=production: its accounts have published passwords (student/student123, teacher/teacher123). A production shop starts empty; the demo shop is `npm start` (development).';

/**
 * Seeds an empty database. Several processes starting at once on one PostgreSQL seed it
 * once: the check and the seed run in one transaction under an advisory lock.
 */
export async function seedIfEmpty(db: Db): Promise<boolean> {
  if (process.env.NODE_ENV === 'production') return false;
  if (!(await isEmpty(db))) return false;
  return seed(db, new Date(), { onlyIfEmpty: true });
}

/** Replaces the database's content with the demo shop. `now` anchors registration dates. */
export async function seed(db: Db, now: Date = new Date(), opts: { onlyIfEmpty?: boolean } = {}): Promise<boolean> {
  // The demo shop's accounts have published passwords (student/student123, teacher/teacher123):
  // never in a production process.
  if (process.env.NODE_ENV === 'production') throw new Error(DEMO_IN_PRODUCTION);
  const [studentHash, teacherHash] = await Promise.all([hashPassword(DEMO.student.password), hashPassword(DEMO.instructor.password)]);
  return db.tx(async (q) => {
    // The seed replaces every account: it holds the student-identity lock (registrations wait).
    await q.query('SELECT pg_advisory_xact_lock($1)', [LOCKS.studentIdentities]);
    if (opts.onlyIfEmpty && !(await isEmpty(q))) return false;
    await truncateAll(q);
    const at = (days: number) => new Date(now.getTime() + days * DAY);

    await insert(q, 'site_settings', { id: 1, data: defaultSiteSettings() });

    // ---- user groups
    const gGeneral = await insert(q, 'user_groups', { name: 'นักเรียนทั่วไป', is_default: true, is_selectable: true });
    const gPartner = await insert(q, 'user_groups', { name: 'นักเรียนโรงเรียนพันธมิตร', is_default: false });
    const gStaff = await insert(q, 'user_groups', { name: 'พนักงานบริษัท', is_default: false });
    // Partner and staff unlock restricted courses (11): the shop assigns them, a buyer cannot pick them.

    // ---- users
    const teacher = await insert(q, 'users', {
      role: 'instructor', username: DEMO.instructor.username, email: DEMO.instructor.email, password_hash: teacherHash,
      firstname: 'อาจารย์สมศรี', lastname: 'ใจดี', firstname_eng: 'Somsri', lastname_eng: 'Jaidee', tel: '0812345670',
      profile: { biography: '<p>ผู้สอนภาษาอังกฤษและโปรแกรมมิ่ง ประสบการณ์ 10 ปี</p>', image: '/uploads/demo-teacher.svg' },
    });
    const student = await insert(q, 'users', {
      role: 'student', username: DEMO.student.username, email: DEMO.student.email, password_hash: studentHash,
      firstname: 'สมชาย', lastname: 'ใจดี', firstname_eng: 'Somchai', lastname_eng: 'Jaidee', nickname: 'ชาย',
      tel: '0812345678', address: '99 ถนนสุขุมวิท แขวงคลองตันเหนือ เขตวัฒนา กรุงเทพมหานคร 10110', user_group_id: gGeneral,
      is_require_tax_invoice: false, tax_person_type: 'normal_person',
    });
    const student2 = await insert(q, 'users', {
      role: 'student', username: DEMO.student2.username, email: DEMO.student2.email, password_hash: studentHash,
      firstname: 'สมหญิง', lastname: 'รักเรียน', firstname_eng: 'Somying', lastname_eng: 'Rakrian', tel: '0898765432',
      user_group_id: gStaff, is_require_tax_invoice: true, tax_person_type: 'juristic_person',
      tax_name_one: 'บริษัท ตัวอย่าง จำกัด', tax_name_two: '00000', tax_payer_identification_no: '1101700203450',
      tax_address: '1 ถนนสีลม แขวงสีลม เขตบางรัก กรุงเทพมหานคร 10500', tax_is_delivery_by_tax_address: true,
      tax_company_certificate: 'demo-company-certificate.png',
    });
    await insert(q, 'shipping_addresses', {
      user_id: student, name: 'สมชาย ใจดี', tel: '0812345678', is_default: true,
      address: '99 ถนนสุขุมวิท', sub_district: 'คลองตันเหนือ', district: 'วัฒนา', province: 'กรุงเทพมหานคร', postcode: '10110',
    });
    await insert(q, 'shipping_addresses', {
      user_id: student2, name: 'สมหญิง รักเรียน', tel: '0898765432', is_default: true,
      address: '1 ถนนสีลม', sub_district: 'สีลม', district: 'บางรัก', province: 'กรุงเทพมหานคร', postcode: '10500',
    });

    // ---- categories
    const catLang = await insert(q, 'categories', { name: 'ภาษา', name_eng: 'Languages', link_path: 'languages' });
    const catProg = await insert(q, 'categories', { name: 'โปรแกรมมิ่ง', name_eng: 'Programming', link_path: 'programming' });
    const catBiz = await insert(q, 'categories', { name: 'ธุรกิจและการลงทุน', name_eng: 'Business', link_path: 'business' });
    const catBook = await insert(q, 'categories', { name: 'หนังสือ', name_eng: 'Books', link_path: 'books' });

    // ---- courses (id order matters for the README and tests: see the comments)
    type C = Row & { name: string; slug: string };
    const course = async (c: C): Promise<number> => {
      const { slug, ...rest } = c;
      const id = await insert(q, 'courses', { ...rest, link_path: `tmp-${slug}`, instructor_id: c.is_product ? null : teacher });
      await q.query('UPDATE courses SET link_path = $2 WHERE id = $1', [id, `${id}-${slug}`]);
      return id;
    };
    const img = (n: string) => `/uploads/demo-${n}.svg`; // server/db/demo-assets, served under /uploads/
    const desc = (th: string, en: string) => `<p>${th}</p><p><em>${en}</em></p>`;

    // 1 Online, site layout (3)
    const cEnglish = await course({
      course_type: 'Online', name: 'คอร์สภาษาอังกฤษเพื่อการสื่อสาร', name_eng: 'English for Communication', slug: 'english-for-communication',
      category_id: catLang, short_description: 'พูด ฟัง อ่าน เขียน ภาษาอังกฤษในชีวิตประจำวัน',
      description: desc('เรียนภาษาอังกฤษเพื่อการสื่อสารในชีวิตประจำวันและการทำงาน 40 บทเรียน', 'Everyday and business English in 40 lessons.'),
      image: img('english'), preview: { url: '/uploads/demo-lesson.mp4', type: 'upload', picture_url: img('english') },
      meta_title: 'คอร์สภาษาอังกฤษเพื่อการสื่อสาร', meta_description: 'เรียนภาษาอังกฤษออนไลน์ได้ทุกที่ทุกเวลา', is_bestseller: true, upload_video_type: 'upload', sort: 1,
    });
    // 2 Flex, layout 1
    const cPython = await course({
      course_type: 'Flex', name: 'Python สำหรับผู้เริ่มต้น', name_eng: 'Python for Beginners', slug: 'python-for-beginners',
      category_id: catProg, short_description: 'เขียนโปรแกรมภาษา Python ตั้งแต่พื้นฐาน',
      description: desc('ตัวแปร เงื่อนไข ลูป ฟังก์ชัน และโปรเจกต์จริง', 'Variables, conditions, loops, functions and a real project.'),
      image: img('python'), preview: { url: '/uploads/demo-lesson.mp4', type: 'upload', picture_url: img('python') },
      layout_course_detail: 1, is_bestseller: true, upload_video_type: 'upload', sort: 2,
    });
    // 3 In-class with seats and registration dates, layout 2
    const cUx = await course({
      course_type: 'In-class', name: 'เวิร์กช็อปออกแบบ UX/UI (เรียนในห้อง)', name_eng: 'UX/UI Design Workshop (in class)', slug: 'ux-ui-workshop',
      category_id: catProg, short_description: 'เวิร์กช็อป 2 วันเต็ม ที่สยามสแควร์', description: desc('ลงมือออกแบบแอปจริงกับผู้สอน รับจำนวนจำกัด 10 ที่นั่ง', 'Hands-on, 10 seats only.'),
      image: img('ux'), seats: 10, seats_total: 10, start_reg_date: at(-7), end_reg_date: at(30), start_date: at(35), end_date: at(36),
      layout_course_detail: 2, sort: 3,
    });
    // 4 In-class, registration closed (TIME_LEFT)
    await course({
      course_type: 'In-class', name: 'สัมมนาการตลาดออนไลน์ (ปิดรับสมัครแล้ว)', name_eng: 'Online Marketing Seminar (registration closed)', slug: 'online-marketing-seminar',
      category_id: catBiz, short_description: 'ปิดรับสมัครแล้ว', description: desc('สัมมนาครึ่งวัน', 'Half-day seminar.'),
      image: img('marketing'), seats: 30, seats_total: 30, start_reg_date: at(-60), end_reg_date: at(-1), start_date: at(5), end_date: at(5), sort: 4,
    });
    // 5 Private-Classroom, layout 4 with embedded registration
    const cMath = await course({
      course_type: 'Private-Classroom', name: 'ติวเข้มคณิตศาสตร์ตัวต่อตัว', name_eng: 'Private Math Tutoring', slug: 'private-math-tutoring',
      category_id: catBiz, short_description: 'เรียนตัวต่อตัวกับติวเตอร์ นัดเวลาได้', description: desc('ติวคณิตศาสตร์ ม.ปลาย แบบตัวต่อตัว', 'One-to-one high-school math.'),
      image: img('math'), layout_course_detail: 4, is_layout_course_registration: true, sort: 5,
    });
    // 6 Live-Broadcast, layout 4 without embedded registration
    const cInvest = await course({
      course_type: 'Live-Broadcast', name: 'ถ่ายทอดสดสัมมนาการลงทุน', name_eng: 'Investing Seminar (live broadcast)', slug: 'investing-live',
      category_id: catBiz, short_description: 'ดูสดผ่านออนไลน์ พร้อมถามตอบ', description: desc('ถ่ายทอดสด 3 ชั่วโมง', 'A 3-hour live broadcast.'),
      image: img('invest'), layout_course_detail: 4, is_layout_course_registration: false, start_date: at(10), sort: 6,
    });
    // 7 Live-Room, layout 3
    const cJapanese = await course({
      course_type: 'Live-Room', name: 'ห้องเรียนสดภาษาญี่ปุ่น N5', name_eng: 'Japanese N5 Live Room', slug: 'japanese-n5-live',
      category_id: catLang, short_description: 'เรียนสดทุกวันเสาร์', description: desc('เตรียมสอบ JLPT N5 แบบสด', 'JLPT N5, live every Saturday.'),
      image: img('japanese'), layout_course_detail: 3, sort: 7,
    });
    // 8 Live-Room-Student-Camera
    const cChinese = await course({
      course_type: 'Live-Room-Student-Camera', name: 'ห้องเรียนสดสนทนาภาษาจีน (เปิดกล้อง)', name_eng: 'Chinese Conversation Live (camera on)', slug: 'chinese-conversation-live',
      category_id: catLang, short_description: 'ฝึกพูดสด เปิดกล้องกับครูเจ้าของภาษา', description: desc('กลุ่มเล็ก 6 คน', 'Small groups of six.'),
      image: img('chinese'), sort: 8,
    });
    // 9 free Online course (auto approved), prerequisite of free-for-student plans
    const cExcel = await course({
      course_type: 'Online', name: 'พื้นฐานการใช้ Excel (ฟรี)', name_eng: 'Excel Basics (free)', slug: 'excel-basics-free',
      category_id: catBiz, short_description: 'คอร์สฟรี เรียนได้ทันที', description: desc('สูตรและตารางพื้นฐาน', 'Formulas and tables.'),
      image: img('excel'), upload_video_type: 'upload', sort: 9,
    });
    // 10 free course needing approval
    const cGuidance = await course({
      course_type: 'Online', name: 'แนะแนวการศึกษาต่อ (ฟรี รออนุมัติ)', name_eng: 'Study Guidance (free, needs approval)', slug: 'study-guidance-free',
      category_id: catBiz, short_description: 'ฟรี ต้องรอผู้ดูแลอนุมัติ', description: desc('แนะแนวการเลือกคณะ', 'Choosing a faculty.'),
      image: img('guidance'), sort: 10,
    });
    // 11 group-restricted Flex course (course access rights)
    const cStaff = await course({
      course_type: 'Flex', name: 'หลักสูตรพัฒนาทักษะพนักงาน (เฉพาะกลุ่ม)', name_eng: 'Staff Skills (group only)', slug: 'staff-skills',
      category_id: catBiz, short_description: 'เฉพาะกลุ่มพนักงานบริษัท', description: desc('เฉพาะผู้ใช้กลุ่มพนักงานบริษัท', 'Staff user group only.'),
      image: img('staff'), is_course_access: true, user_group_ids: [gStaff, gPartner], sort: 11,
    });
    // 12-14 physical products
    const pGrammar = await course({
      course_type: 'Product', is_product: true, name: 'หนังสือไวยากรณ์อังกฤษฉบับสมบูรณ์', name_eng: 'Complete English Grammar (book)', slug: 'english-grammar-book',
      category_id: catBook, short_description: 'หนังสือ 320 หน้า พร้อมแบบฝึกหัด', description: desc('ปกอ่อน 320 หน้า', 'Paperback, 320 pages.'),
      image: img('book-grammar'), image_detail: [img('book-grammar'), img('book-grammar-2'), img('book-grammar-3')],
      preview: { videoUrl: null, pictureUrl: img('book-grammar') }, meta_title: 'หนังสือไวยากรณ์อังกฤษ', meta_description: 'หนังสือไวยากรณ์ภาษาอังกฤษฉบับสมบูรณ์',
      stock: 25, requires_shipping: true, sort: 12,
    });
    const pPythonBook = await course({
      course_type: 'Product', is_product: true, name: 'หนังสือแบบฝึกหัด Python', name_eng: 'Python Workbook (book)', slug: 'python-workbook',
      category_id: catBook, short_description: 'เหลือไม่กี่เล่ม', description: desc('แบบฝึกหัด 200 ข้อ', '200 exercises.'),
      image: img('book-python'), image_detail: [img('book-python')], preview: { videoUrl: '/uploads/demo-lesson.mp4', pictureUrl: img('book-python') },
      stock: 3, requires_shipping: true, sort: 13,
    });
    const pGuide = await course({
      course_type: 'Product', is_product: true, name: 'คู่มือการเรียนออนไลน์ (แจกฟรี)', name_eng: 'Online Learning Guide (free book)', slug: 'free-learning-guide',
      category_id: catBook, short_description: 'หนังสือแจกฟรี ชำระเฉพาะค่าจัดส่ง', description: desc('แจกฟรี', 'Free, pay shipping only.'),
      image: img('book-guide'), image_detail: [img('book-guide')], preview: { videoUrl: null, pictureUrl: img('book-guide') },
      stock: 100, requires_shipping: true, sort: 14,
    });

    // 15 Online course with a free-course prerequisite (buy_course_free): only students owning
    // the free Excel course (9) can take it, through its free-for-student plan.
    const cExcelPlus = await course({
      course_type: 'Online', name: 'Excel ขั้นสูง (สำหรับผู้เรียน Excel ฟรี)', name_eng: 'Advanced Excel (for Excel Basics students)', slug: 'advanced-excel',
      category_id: catBiz, short_description: 'ต่อยอดจากคอร์ส Excel ฟรี', description: desc('PivotTable และ Power Query', 'PivotTables and Power Query.'),
      image: img('excel-plus'), upload_video_type: 'upload', sort: 15,
    });

    // ---- curriculum: sections and lectures of every content type
    const lecture = (sectionId: number, courseId: number, l: Row) => insert(q, 'lectures', { section_id: sectionId, course_id: courseId, ...l });
    // Every lesson video is the shop's own file (no internet at run time, nothing of anyone else's).
    const videoUrl = '/uploads/demo-lesson.mp4';
    const curriculum = async (courseId: number) => {
      const s1 = await insert(q, 'sections', { course_id: courseId, name: 'บทที่ 1 เริ่มต้น (Getting started)', location: 0 });
      const s2 = await insert(q, 'sections', { course_id: courseId, name: 'บทที่ 2 ฝึกปฏิบัติ (Practice)', location: 1 });
      const s3 = await insert(q, 'sections', { course_id: courseId, name: 'บทที่ 3 ทดสอบ (Assessment)', location: 2 });
      await lecture(s1, courseId, { name: 'แนะนำคอร์ส (Introduction)', location: 0, content_type: 'video', preview: true, video_id: 1, video_name: 'intro.mp4', video_url: videoUrl, video_length: 180 });
      await lecture(s1, courseId, { name: 'เอกสารประกอบการเรียน (Handout)', location: 1, content_type: 'document', content_file: 'demo-handout.pdf' });
      await lecture(s1, courseId, { name: 'บทความ: วิธีเรียนให้ได้ผล (Article)', location: 2, content_type: 'text', content_text: '<p>เรียนวันละ 30 นาทีอย่างสม่ำเสมอ</p>', preview: true });
      await lecture(s2, courseId, { name: 'ฝึกปฏิบัติ 1 (Practice 1)', location: 0, content_type: 'video', video_id: 2, video_name: 'practice-1.mp4', video_url: videoUrl, video_length: 900 });
      await lecture(s2, courseId, { name: 'ไฟล์เสียงฝึกฟัง (Listening audio)', location: 1, content_type: 'audio', content_file: 'demo-listening.mp3' });
      await lecture(s2, courseId, { name: 'การบ้าน (Homework)', location: 2, content_type: 'homework', homework_id: 1, content_text: 'ส่งงานภายใน 7 วัน' });
      await lecture(s3, courseId, {
        name: 'แบบทดสอบท้ายบท (Quiz)', location: 0, content_type: 'quiz', quiz_id: 1, quiz_is_require_all_answer: true, quiz_is_pass_to_complete: true,
        check_pass_quiz: true, score_pass_quiz: 60, quiz_integrate_type: 'internal', is_quiz_integrate_not_pass_reset_progress: false,
      });
      await lecture(s3, courseId, { name: 'แบบทดสอบเชื่อมต่อภายนอก (External quiz)', location: 1, content_type: 'quiz', quiz_id: 2, quiz_integrate_type: 'google_form', is_quiz_integrate_not_pass_reset_progress: true, check_pass_quiz: false });
    };
    for (const id of [cEnglish, cPython, cExcel, cUx, cStaff, cExcelPlus]) await curriculum(id);
    for (const id of [cMath, cInvest, cJapanese, cChinese, cGuidance]) {
      const s = await insert(q, 'sections', { course_id: id, name: 'ภาพรวม (Overview)', location: 0 });
      await lecture(s, id, { name: 'แนะนำ (Introduction)', location: 0, content_type: 'video', preview: true, video_id: 3, video_name: 'overview.mp4', video_url: videoUrl, video_length: 120 });
    }

    // ---- pricing plans: every plan type
    const plan = (courseId: number, p: Row) => insert(q, 'pricing_plans', { course_id: courseId, ...p });
    // English: Period 1 year (default), Period 90 days, Period unlimited member-only, renewal, free-for-student
    await plan(cEnglish, { name: 'เรียนได้ 1 ปี (1 year)', plan_type: 'Period', term: 1, term_unit: 'Year(s)', price: 199000, price_usd: 5900, is_default: true, sort: 1 });
    await plan(cEnglish, { name: 'เรียนได้ 90 วัน (90 days)', plan_type: 'Period', term: 90, term_unit: 'Day(s)', price: 99000, price_usd: 2900, sort: 2 });
    await plan(cEnglish, { name: 'สมาชิก: เรียนได้ไม่จำกัด (members, unlimited)', plan_type: 'Period', term: -1, term_unit: 'Day(s)', price: 299000, price_usd: null, is_for_member: true, sort: 3 });
    await plan(cEnglish, { name: 'ต่ออายุ 6 เดือน (renew 6 months)', plan_type: 'Period', term: 6, term_unit: 'Month(s)', price: 59000, price_usd: 1700, pricing_type: 'renew', sort: 4 });
    await plan(cEnglish, { name: 'ฟรีสำหรับนักเรียน Excel (free for students)', plan_type: 'Free', price: 0, price_usd: 0, free_for: 'student', free_course_ids: String(cExcel), sort: 5 });
    // Python: Actual 20 hours + second term 30 days (default), One-Time Payment, renewal
    await plan(cPython, { name: 'เรียน 20 ชั่วโมง ภายใน 30 วัน (20 hours within 30 days)', plan_type: 'Actual', term: 20, term_unit: 'Hour(s)', term_2: 30, term_unit_2: 'Day(s)', price: 149000, price_usd: 4500, is_default: true, sort: 1 });
    await plan(cPython, { name: 'จ่ายครั้งเดียว เรียนได้ตลอด (one-time, lifetime)', plan_type: 'One-Time Payment', price: 349000, price_usd: 9900, sort: 2 });
    await plan(cPython, { name: 'ต่ออายุ 10 ชั่วโมง (renew 10 hours)', plan_type: 'Actual', term: 10, term_unit: 'Hour(s)', term_2: 14, term_unit_2: 'Day(s)', price: 49000, price_usd: 1500, pricing_type: 'renew', sort: 3 });
    // UX in-class: One-Time; hidden plan (status_show 0)
    await plan(cUx, { name: 'ค่าเวิร์กช็อป (workshop fee)', plan_type: 'One-Time Payment', price: 350000, price_usd: 10500, is_default: true, sort: 1 });
    await plan(cUx, { name: 'ราคาพิเศษภายใน (hidden)', plan_type: 'One-Time Payment', price: 100000, price_usd: null, status_show: 0, sort: 2 });
    // Marketing seminar (closed)
    await plan(4, { name: 'ค่าสัมมนา (seminar fee)', plan_type: 'One-Time Payment', price: 150000, price_usd: 4500, is_default: true });
    // Private math: Period 3 months; Actual 10 hours
    await plan(cMath, { name: 'ติว 3 เดือน (3 months)', plan_type: 'Period', term: 3, term_unit: 'Month(s)', price: 890000, price_usd: 26000, is_default: true, sort: 1 });
    await plan(cMath, { name: 'ติว 10 ชั่วโมง (10 hours)', plan_type: 'Actual', term: 10, term_unit: 'Hour(s)', price: 450000, price_usd: null, sort: 2 });
    // Live broadcast: One-Time, THB only
    await plan(cInvest, { name: 'บัตรเข้าชมสด (live ticket)', plan_type: 'One-Time Payment', price: 59000, price_usd: null, is_default: true });
    // Japanese live room: Period 6 months
    await plan(cJapanese, { name: 'เรียนสด 6 เดือน (6 months)', plan_type: 'Period', term: 6, term_unit: 'Month(s)', price: 690000, price_usd: 19900, is_default: true });
    // Chinese camera room: Period 1 month; One-Time for members
    await plan(cChinese, { name: 'เรียนสด 1 เดือน (1 month)', plan_type: 'Period', term: 1, term_unit: 'Month(s)', price: 250000, price_usd: 7500, is_default: true, sort: 1 });
    await plan(cChinese, { name: 'สมาชิก: จ่ายครั้งเดียว (members, one-time)', plan_type: 'One-Time Payment', price: 990000, price_usd: 29000, is_for_member: true, sort: 2 });
    // Free courses: auto approved / needs approval
    await plan(cExcel, { name: 'ฟรี (free)', plan_type: 'Free', price: 0, price_usd: 0, is_default: true, need_approval: false });
    await plan(cGuidance, { name: 'ฟรี รออนุมัติ (free, needs approval)', plan_type: 'Free', price: 0, price_usd: 0, is_default: true, need_approval: true });
    // Staff course
    await plan(cStaff, { name: 'หลักสูตรพนักงาน 1 ปี (1 year)', plan_type: 'Period', term: 1, term_unit: 'Year(s)', price: 120000, price_usd: 3500, is_default: true });
    await plan(cExcelPlus, { name: 'ฟรีสำหรับผู้เรียน Excel (free for Excel students)', plan_type: 'Period', term: 6, term_unit: 'Month(s)', price: 0, price_usd: 0, free_for: 'student', free_course_ids: String(cExcel), buy_course_free: true, is_default: true });
    // Products
    await plan(pGrammar, { name: 'ราคาหนังสือ (book)', plan_type: 'One-Time Payment', price: 45000, price_usd: 1300, is_default: true });
    await plan(pPythonBook, { name: 'ราคาหนังสือ (book)', plan_type: 'One-Time Payment', price: 32000, price_usd: 950, is_default: true });
    await plan(pGuide, { name: 'แจกฟรี (free book)', plan_type: 'Free', price: 0, price_usd: 0, is_default: true });

    // ---- shipping fees
    await insert(q, 'shipping_fees', { name: 'ไปรษณีย์ลงทะเบียน (registered mail)', fee: 3000, fee_usd: 100 });
    await insert(q, 'shipping_fees', { name: 'ไปรษณีย์ EMS', fee: 5000, fee_usd: 200 });
    await insert(q, 'shipping_fees', { name: 'Kerry Express', fee: 6000, fee_usd: null });

    // ---- payment methods, bank accounts, bank codes
    for (const m of PAYMENT_METHODS) await insert(q, 'payment_methods', m);
    await insert(q, 'bank_accounts', { payment_method_id: 1, account_id: '123-4-56789-0', account_name: 'บริษัท โรงเรียนออนไลน์ตัวอย่าง จำกัด', bank: 'KBANK', bank_name: 'ธนาคารกสิกรไทย', prompt_pay_image: '/uploads/demo-promptpay.png' });
    await insert(q, 'bank_accounts', { payment_method_id: 1, account_id: '987-6-54321-0', account_name: 'บริษัท โรงเรียนออนไลน์ตัวอย่าง จำกัด', bank: 'SCB', bank_name: 'ธนาคารไทยพาณิชย์', prompt_pay_image: null });
    await insert(q, 'bank_accounts', { payment_method_id: 1, account_id: '111-2-33344-5', account_name: 'บริษัท โรงเรียนออนไลน์ตัวอย่าง จำกัด', bank: 'BBL', bank_name: 'ธนาคารกรุงเทพ', prompt_pay_image: null });
    for (const [i, [value, name]] of BANK_CODES.entries()) await insert(q, 'bank_codes', { banktransfer_value: value, banktransfer_nameth: name, sort: i });

    // ---- coupons: P1/P2, percent/amount, payment-method limits, usage limits
    const coupon = (c: Row) => insert(q, 'coupons', { payment_method: ALL_METHODS, ...c });
    await coupon({ code: 'WELCOME10', name: 'ส่วนลด 10% สมาชิกใหม่', coupon_type: 'P1', number_of_course: 1, courses: [cEnglish, cPython, cUx, cJapanese], discount_type: 'percent', discount_amont: 10, usage_limit: 100 });
    await coupon({ code: 'SAVE500', name: 'ลด 500 บาท (โอน/บัตร Omise)', coupon_type: 'P1', number_of_course: 1, courses: [cEnglish, cPython, cMath], payment_method: [1, 8], discount_type: 'amount', discount_amont: 50000, discount_amount_usd: 1500, usage_limit: 50 });
    await coupon({ code: 'BUNDLE2', name: 'ซื้อ 2 คอร์สลด 15%', coupon_type: 'P2', number_of_course: 2, courses: [cEnglish, cPython, cJapanese, cChinese, cMath], discount_type: 'percent', discount_amont: 15 });
    await coupon({ code: 'BOOK100', name: 'หนังสือ 2 เล่มลด 100 บาท', coupon_type: 'P2', number_of_course: 2, courses: [pGrammar, pPythonBook], payment_method: [1], discount_type: 'amount', discount_amont: 10000, discount_amount_usd: 300 });
    await coupon({ code: 'LIMITED5', name: 'ลด 20% 5 สิทธิ์แรก', coupon_type: 'P1', number_of_course: 1, courses: [cUx, cEnglish], discount_type: 'percent', discount_amont: 20, usage_limit: 5 });
    await coupon({ code: 'SOLDOUT', name: 'คูปองเต็มแล้ว (full)', coupon_type: 'P1', number_of_course: 1, courses: [cEnglish], discount_type: 'amount', discount_amont: 20000, usage_limit: 1, used_count: 1 });
    await coupon({ code: 'EXPIRED', name: 'หมดอายุแล้ว', coupon_type: 'P1', number_of_course: 1, courses: [cEnglish], discount_type: 'percent', discount_amont: 50, ends_at: at(-1) });
    // Layout 4's two courses (5 with the embedded registration, 6 without): 15%, any method.
    await coupon({ code: 'ONEPAGE15', name: 'ลด 15% คอร์สหน้าเดียว (layout 4)', coupon_type: 'P1', number_of_course: 1, courses: [cMath, cInvest], discount_type: 'percent', discount_amont: 15, usage_limit: 100 });

    // ---- promotions
    await insert(q, 'promotions', {
      title: 'ซื้อคู่ภาษาอังกฤษ + ญี่ปุ่น ลด 1,000 บาท', description_list: ['ซื้อ 2 คอร์สภาษาพร้อมกัน', 'Buy both language courses together'],
      promotion_type: 'P2', courses: [cEnglish, cJapanese], number_of_course: 2, discount_type: 'amount', discount_amont: 100000, discount_amount_usd: 3000,
    });
    await insert(q, 'promotions', {
      title: 'โปรโมชันโปรแกรมมิ่ง ลด 10%', description_list: ['ลด 10% คอร์ส Python', '10% off Python'],
      promotion_type: 'P1', courses: [cPython], number_of_course: 1, discount_type: 'percent', discount_amont: 10,
    });
    await insert(q, 'promotions', {
      title: 'โปรหมดเขตแล้ว', description_list: ['expired'], promotion_type: 'P1', courses: [cMath], number_of_course: 1, discount_type: 'percent', discount_amont: 5, ends_at: at(-1),
    });

    // ---- custom labels of all six types
    await insert(q, 'custom_labels', { type_label: 'inputtext', label: 'โรงเรียน/มหาวิทยาลัย (School)', order_label: 1, required: 1, item_list: [] });
    await insert(q, 'custom_labels', { type_label: 'select', label: 'ระดับชั้น (Level)', order_label: 2, required: 1, item_list: ['ม.4', 'ม.5', 'ม.6', 'ปริญญาตรี', 'วัยทำงาน'] });
    await insert(q, 'custom_labels', { type_label: 'multiple', label: 'วิชาที่สนใจ (Interests)', order_label: 3, required: 0, item_list: ['ภาษาอังกฤษ', 'คณิตศาสตร์', 'โปรแกรมมิ่ง', 'ธุรกิจ'] });
    await insert(q, 'custom_labels', { type_label: 'checkbox', label: 'รับข่าวสารทางอีเมล (Newsletter)', order_label: 4, required: 0, item_list: ['รับข่าวสาร'] });
    await insert(q, 'custom_labels', { type_label: 'radio', label: 'ช่องทางที่รู้จักเรา (How did you find us)', order_label: 5, required: 1, item_list: ['Facebook', 'Google', 'เพื่อนแนะนำ', 'อื่น ๆ'] });
    await insert(q, 'custom_labels', { type_label: 'image', label: 'รูปบัตรนักเรียน 600x600 (Student card)', order_label: 6, required: 0, item_list: [] });

    // ---- the demo student's history: owns the free Excel course and Python (countdown, progress)
    const order = async (userId: number, courseId: number, planName: string, approvedDaysAgo: number, price: number) => {
      const p = await q.query<{ id: number; name: string }>('SELECT id FROM pricing_plans WHERE course_id = $1 AND name = $2', [courseId, planName]);
      const c = await q.query<{ name: string; course_type: string }>('SELECT name, course_type FROM courses WHERE id = $1', [courseId]);
      const created = at(-approvedDaysAgo);
      const orderId = await insert(q, 'orders', {
        order_token: `demo-${userId}-${courseId}`, user_id: userId, status: 'approved', payment_status: 'approved', currency_code: 'THB',
        payment_method_id: 1, price, total: price, email: userId === student ? DEMO.student.email : DEMO.student2.email,
        cancel_at: new Date(created.getTime() + DAY), approved_at: created, approve_by: 'seed', created_at: created, updated_at: created,
      });
      await insert(q, 'order_courses', {
        order_id: orderId, course_id: courseId, pricing_plan_id: p.rows[0]!.id, course_name: c.rows[0]!.name, course_type: c.rows[0]!.course_type,
        qty: 1, original_pricing_price: price, discount: 0, price,
      });
      return orderId;
    };
    await order(student, cExcel, 'ฟรี (free)', 20, 0);
    await order(student, cPython, 'เรียน 20 ชั่วโมง ภายใน 30 วัน (20 hours within 30 days)', 3, 149000);
    await order(student2, cEnglish, 'เรียนได้ 1 ปี (1 year)', 40, 199000);
    const lectures = await q.query<{ id: number; section_id: number }>('SELECT id, section_id FROM lectures WHERE course_id = $1 ORDER BY section_id, location LIMIT 3', [cPython]);
    for (const [i, l] of lectures.rows.entries()) {
      await insert(q, 'lecture_progress', { user_id: student, course_id: cPython, lecture_id: l.id, section_id: l.section_id, is_complete: true, progress_seconds: 300, updated_at: at(-2 + i * 0.1) });
    }
    return true;
  });
}
