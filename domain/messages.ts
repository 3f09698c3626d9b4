/**
 * The message catalogue of the spec's texts (errors and notices that domain rules, machines and the
 * server produce), Thai (MESSAGES) and English (MESSAGES_EN in ./messages-en.ts, same keys; a module
 * of its own, registered here by whoever reads it, so that a page read in Thai does not load it). Where the spec quotes a text
 * in English ('Please upload Profile Picture', 'Out off Storage', ...) that literal text is the shown
 * text in both catalogues, spelling kept. Where the spec only describes a text, the Thai wording here
 * is ours (marked "ours" in README).
 *
 * Layout (one catalogue per language, each in two parts with disjoint keys and no text written twice):
 * - here: the messages domain, machines and the server carry, as `Msg` = `{ key, params? }`, never as
 *   text. `{name}` in a text is filled from `params`.
 * - src/i18n/messages.ts (TH) and src/i18n/en.ts (EN): the UI's own labels; a label whose words are a
 *   message here refers to it (`notFound: MESSAGES.PAGE_NOT_FOUND`).
 * Text is made only at the edges: views (`tm` / `t` in src/i18n), e-mails (./mail.ts) and the API
 * answer (server/app.ts renders the error's `Msg` in the request's language).
 */
export const MESSAGES = {
  // Plans (spec 8)
  NO_PLAN_FOR_YOU: 'ไม่มีรูปแบบราคาสำหรับคุณ',
  NO_PLAN_SELECTED: 'กรุณาเลือกรูปแบบราคา',

  // Cart and order (spec 5, 8)
  EMPTY_CART: 'ยังไม่มีสินค้าในรถเข็น',
  SHIPPING_ADDRESS_REQUIRED: 'กรุณากรอกข้อมูลที่อยู่จัดส่ง',
  SHIPPING_FEE_REQUIRED: 'กรุณาเลือกค่าจัดส่ง',
  PROMOTION_NOT_SELECTED: 'คำสั่งซื้อของคุณมีโปรโมชั่นร่วม กรุณาเลือกโปรโมชั่น',
  DUPLICATE_COURSE: 'มีคอร์สซ้ำในรถเข็น',
  DONT_HAVE_PRICING: 'ไม่พบรูปแบบราคาของคอร์ส',
  HAVE_COURSE: 'คุณมีคอร์สนี้อยู่แล้ว',
  DONT_HAVE_PAYMENT: 'กรุณาเลือกช่องทางการชำระเงิน',
  CART_PRICING_USD_FAILED: 'คอร์สนี้ไม่มีราคา USD',
  PROMOTION_NOT_USABLE: 'โปรโมชั่นนี้ใช้กับรถเข็นนี้ไม่ได้',
  COUPON_PROMOTION_EXCLUSIVE: 'ใช้คูปองร่วมกับโปรโมชั่นไม่ได้',
  INVALID_QTY: 'จำนวนสินค้าไม่ถูกต้อง',
  CART_SUCCESS: 'จองคอร์สเรียบร้อยแล้ว',
  CART_FAIL: 'ทำรายการไม่สำเร็จ กรุณาลองใหม่อีกครั้ง',

  // Buyability (spec 4 "Course order status")
  BUY_LOADING: 'กำลังโหลดข้อมูล',
  BUY_INSTRUCTOR_NOT_STUDENT: 'บัญชีผู้สอนซื้อคอร์สไม่ได้ กรุณาเข้าสู่ระบบด้วยบัญชีนักเรียน',
  BUY_ACCESS_DENIED: 'คุณไม่มีสิทธิ์เข้าถึงคอร์สนี้',
  BUY_ORDER_NOT_YET_RECEIVED: 'คุณมีคำสั่งซื้อคอร์สนี้ที่รอการชำระเงิน',
  BUY_ORDER_REJECTED: 'คำสั่งซื้อคอร์สนี้ถูกปฏิเสธ กรุณาติดต่อผู้ดูแลระบบ',
  BUY_ORDER_PENDING_APPROVAL: 'คำสั่งซื้อคอร์สนี้รอการอนุมัติ',
  BUY_NEEDS_FREE_COURSE: 'ต้องมีคอร์สฟรีที่กำหนดก่อนจึงจะซื้อคอร์สนี้ได้',
  BUY_NO_SEATS: 'ที่นั่งเต็มแล้ว',
  BUY_REGISTRATION_NOT_OPEN: 'ยังไม่เปิดรับสมัคร',
  BUY_REGISTRATION_CLOSED: 'ปิดรับสมัครแล้ว',
  BUY_OUT_OF_STOCK: 'สินค้าหมด',

  // Payment (spec 5, 8, 9)
  BELOW_METHOD_MINIMUM: 'ไม่สามารถเลือกช่องทางชำระเงินนี้ได้ เนื่องจากยอดรวมต่ำกว่าขั้นต่ำ (20 บาท)',
  METHOD_CURRENCY_NOT_SUPPORTED: 'ช่องทางชำระเงินนี้ไม่รองรับสกุลเงินที่เลือก',
  PAYMENT_FAILED_TITLE: 'ผิดพลาด',
  PAYMENT_FAILED: 'ชำระเงินไม่สำเร็จ กรุณาลองอีกครั้ง',
  PAYMENT_NOTICE_TITLE: 'แจ้งชำระเงิน',
  PAYMENT_NOTICE_LATER: 'ไว้แจ้งทีหลัง',

  // Coupons (spec 8 "Coupon")
  NOT_FOUND: 'ไม่พบคูปองนี้',
  COUPON_NOT_AVAILABLE: 'คูปองถูกใช้ครบจำนวนแล้ว',
  COUPON_NOT_SUPPORTED_COURSE: 'คูปองนี้ใช้ไม่ได้กับคอร์สในรถเข็น',
  COUPON_NOT_SUPPORTED_PAYMENT: 'คูปองนี้ใช้ไม่ได้กับช่องทางการชำระเงินที่เลือก',
  COUPON_NO_PAYMENT_METHOD: 'คูปองนี้ไม่มีช่องทางการชำระเงินที่ใช้ได้',
  COUPON_NOT_ENOUGH_COURSES: 'จำนวนคอร์สในรถเข็นไม่ครบตามเงื่อนไขของคูปอง',
  COUPON_DUPLICATE: 'คุณใช้คูปองนี้แล้ว',
  COUPON_ONLY_ONE: 'ใช้คูปองได้เพียง 1 ใบต่อคำสั่งซื้อ',
  COUPON_NOT_SUPPORTED_CURRENCY: 'คูปองนี้ใช้กับสกุลเงินที่เลือกไม่ได้',

  // Registration (spec 5)
  FIRSTNAME_REQUIRED: 'กรุณากรอกชื่อ',
  LASTNAME_REQUIRED: 'กรุณากรอกนามสกุล',
  NAME_TOO_LONG: 'Please enter name, not over 255 characters',
  EMAIL_REQUIRED: 'กรุณากรอกอีเมล',
  EMAIL_INVALID: 'รูปแบบอีเมลไม่ถูกต้อง',
  TEL_REQUIRED: 'กรุณากรอกเบอร์โทรศัพท์',
  TEL_INVALID: 'เบอร์โทรศัพท์ต้องเป็นตัวเลข 9-10 หลัก',
  NICKNAME_REQUIRED: 'กรุณากรอกชื่อเล่น',
  ADDRESS_REQUIRED: 'กรุณากรอกที่อยู่',
  PROFILE_PICTURE_REQUIRED: 'Please upload Profile Picture',
  USER_GROUP_REQUIRED: 'กรุณาเลือกกลุ่มผู้ใช้',
  USERNAME_REQUIRED: 'กรุณากรอกชื่อผู้ใช้',
  USERNAME_INVALID: 'ชื่อผู้ใช้ใช้ได้เฉพาะตัวอักษร ตัวเลข และ @ - _ .',
  PASSWORD_REQUIRED: 'กรุณากรอกรหัสผ่าน',
  PASSWORD_INVALID: 'รหัสผ่านใช้ได้เฉพาะตัวอักษร ตัวเลข และ @ - _ .',
  PASSWORD_TOO_SHORT: 'รหัสผ่านต้องมีอย่างน้อย 6 ตัวอักษร',
  PASSWORD_CONFIRM_REQUIRED: 'กรุณายืนยันรหัสผ่าน',
  PASSWORD_MISMATCH: 'รหัสผ่านไม่ตรงกัน',
  CUSTOM_LABEL_REQUIRED: 'กรุณากรอกข้อมูลให้ครบถ้วน',
  INVALID_CONTACT_INFO: 'ข้อมูลติดต่อไม่ถูกต้อง',
  INVALID_LOGIN_INFO: 'ข้อมูลเข้าสู่ระบบไม่ถูกต้อง',
  REGISTERED_LOGIN_FAILED: 'สมัครสมาชิกเรียบร้อยแล้ว แต่ยังเข้าสู่ระบบไม่สำเร็จ กรุณาเข้าสู่ระบบด้วยชื่อผู้ใช้และรหัสผ่านที่เพิ่งตั้ง',
  REGISTERED_BUYER_LOGIN_FAILED: 'บันทึกข้อมูลผู้ซื้อเรียบร้อยแล้ว แต่ยังเข้าสู่ระบบไม่สำเร็จ กรุณาลองอีกครั้ง',

  // Registration codes (spec 8)
  INPUT_ERROR: 'ไม่สามารถบันทึกข้อมูลได้ กรุณาลองใหม่อีกครั้ง',
  OVER_LIMIT_USER: 'จำนวนผู้ใช้ครบตามที่กำหนดแล้ว กรุณาติดต่อผู้ดูแลระบบ',
  ERROR_CREATE_USER_IN_DAY: 'สร้างบัญชีครบจำนวนที่กำหนดต่อวันแล้ว',
  DUPLICATE_USERNAME: 'ชื่อผู้ใช้นี้มีในระบบแล้ว',
  DUPLICATE_EMAIL: 'อีเมลนี้มีในระบบแล้ว',
  INVALID_FORMAT_USERNAME: 'รูปแบบชื่อผู้ใช้ไม่ถูกต้อง',
  INVALID_FORMAT_PASSWORD: 'รูปแบบรหัสผ่านไม่ถูกต้อง',
  INVALID_FORMAT_EMAIL: 'รูปแบบอีเมลไม่ถูกต้อง',

  // Tax invoice (spec 5)
  TAX_INVOICE_INVALID: 'ข้อมูลใบกำกับภาษีไม่ถูกต้อง',
  CANNOT_LOAD_DATA: 'ไม่สามารถดึงข้อมูลได้ กรุณาลองใหม่อีกครั้ง',
  TAX_COMPANY_NAME_REQUIRED: 'กรุณากรอกชื่อบริษัท',
  TAX_BRANCH_REQUIRED: 'กรุณากรอกชื่อสาขาหรือเลขที่สาขา',
  TAX_FIRSTNAME_REQUIRED: 'กรุณากรอกชื่อ',
  TAX_LASTNAME_REQUIRED: 'กรุณากรอกนามสกุล',
  TAX_ID_EMPTY: 'กรุณากรอกเลขประจำตัวผู้เสียภาษี',
  TAX_ID_TOO_LONG: 'เลขประจำตัวผู้เสียภาษีต้องไม่เกิน 13 หลัก',
  TAX_ID_TOO_SHORT: 'เลขประจำตัวผู้เสียภาษีต้องมี 13 หลัก',
  TAX_ID_INVALID: 'เลขประจำตัวผู้เสียภาษีไม่ถูกต้อง',
  CITIZEN_ID_EMPTY: 'กรุณากรอกเลขประจำตัวประชาชน',
  CITIZEN_ID_TOO_LONG: 'เลขประจำตัวประชาชนต้องไม่เกิน 13 หลัก',
  CITIZEN_ID_TOO_SHORT: 'เลขประจำตัวประชาชนต้องมี 13 หลัก',
  CITIZEN_ID_INVALID: 'เลขประจำตัวประชาชนไม่ถูกต้อง',
  TAX_ADDRESS_REQUIRED: 'กรุณากรอกที่อยู่สำหรับออกใบกำกับภาษี',
  TAX_DELIVERY_ADDRESS_REQUIRED: 'กรุณากรอกที่อยู่สำหรับจัดส่งใบกำกับภาษี',
  TAX_COMPANY_CERTIFICATE_REQUIRED: 'กรุณาอัพโหลดหนังสือรับรองบริษัท',
  TAX_PERSON_TYPE_REQUIRED: 'กรุณาเลือกประเภทผู้เสียภาษี',
  WITHHOLDING_NEEDS_JURISTIC: 'การหักภาษี ณ ที่จ่ายใช้ได้เฉพาะนิติบุคคลที่ขอใบกำกับภาษี',
  WITHHOLDING_NOT_OFFERED: 'คำสั่งซื้อนี้ไม่สามารถหักภาษี ณ ที่จ่ายได้',
  WITHHOLDING_PERCENT_INVALID: 'อัตราหักภาษี ณ ที่จ่ายต้องเป็น 3% หรือ 1%',

  // Bank-transfer notice (spec 5, in this order)
  INVALID_DATA_TITLE: 'คุณกรอกข้อมูลไม่ถูกต้อง',
  SLIP_REQUIRED: 'กรุณาอัพโหลดหลักฐานการโอนเงิน',
  CONTACT_NAME_REQUIRED: 'กรุณากรอกชื่อผู้ติดต่อ',
  TRANSFER_AMOUNT_REQUIRED: 'กรุณากรอกจำนวนเงินที่โอน',
  ORIGIN_BANK_REQUIRED: 'กรุณาเลือกธนาคารต้นทางที่โอน',
  DESTINATION_ACCOUNT_REQUIRED: 'กรุณาเลือกเลขบัญชีที่โอน',
  TRANSFER_DATE_REQUIRED: 'กรุณากรอกวันที่ที่โอนเงิน',
  TRANSFER_TIME_REQUIRED: 'กรุณากรอกเวลาที่โอนเงิน',

  // Card form (spec 5 "Card form")
  CARD_NUMBER_REQUIRED: 'กรุณากรอกหมายเลขบัตร',
  CARD_NUMBER_INVALID: 'หมายเลขบัตรไม่ถูกต้อง',
  CARD_MONTH_INVALID: 'กรุณากรอกเดือนหมดอายุเป็น MM (01-12)',
  CARD_YEAR_INVALID: 'กรุณากรอกปีหมดอายุเป็น YYYY',
  CARD_EXPIRED: 'บัตรหมดอายุแล้ว',
  CARD_CVV_INVALID: 'กรุณากรอก CVV 3-4 หลัก',

  // Upload (spec 5 "Upload", spec 8)
  FILE_TYPE_NOT_ALLOWED: 'File type is not allow to upload.',
  OUT_OF_STORAGE: 'Out off Storage',
  ONE_FILE_ONLY: 'อัพโหลดได้ 1 ไฟล์',
  FILE_REQUIRED: 'กรุณาเลือกไฟล์',
  IMAGE_UPLOAD_FAILED: 'อัพโหลดรูปภาพไม่สำเร็จ กรุณาลองใหม่อีกครั้ง',

  // Free-order payment report (spec 6)
  NEED_APPROVED_BY_ADMIN: 'Need approved by admin',
  AUTO_APPROVED: 'Auto approved',

  // Shop: a coupon outside its dates says so instead of "not found"
  COUPON_EXPIRED: 'คูปองนี้หมดอายุแล้ว',
  COUPON_NOT_YET_VALID: 'คูปองนี้ยังไม่ถึงวันที่เริ่มใช้',
  // Pages (the server writes it into an unknown course's or product's page)
  PAGE_NOT_FOUND: '404 ไม่พบหน้าที่คุณต้องการ',
  // i18n: the API's answer to a request its contract refuses, never the validator's words
  INVALID_REQUEST: 'ข้อมูลที่ส่งมาไม่ถูกต้อง',
  FIELD_REQUIRED: 'กรุณากรอกข้อมูลที่จำเป็นให้ครบ',
  FIELD_INVALID: 'รูปแบบข้อมูลไม่ถูกต้อง',
  FIELD_NOT_ALLOWED: 'มีข้อมูลที่ไม่รู้จักในคำขอ',
  BODY_NOT_JSON: 'ข้อมูลที่ส่งมาไม่ใช่ JSON ที่ถูกต้อง',
  UNSUPPORTED_CONTENT_TYPE: 'ไม่รองรับรูปแบบข้อมูลที่ส่งมา',
  VALUE_OUT_OF_RANGE: 'ค่าที่ส่งมาเกินขอบเขตที่รองรับ',
  // the server's own refusals a buyer may read (the English texts are the handlers' words; the
  // protocol's 'Unauthorized' of spec section 6 stays as it is, the client reads it)
  ORDER_NOT_FOUND: 'ไม่พบคำสั่งซื้อ',
  COURSE_NOT_FOUND: 'ไม่พบคอร์ส',
  NOT_YOUR_ORDER: 'คำสั่งซื้อนี้เป็นของผู้ใช้อื่น',
  LOGIN_AS_STUDENT: 'กรุณาเข้าสู่ระบบในฐานะนักเรียน',
  WHITELIST_USER_DENIED: 'บัญชีของคุณไม่ได้รับอนุญาตให้ใช้งาน กรุณาติดต่อร้านค้า',
  INTERNAL_ERROR: 'เกิดข้อผิดพลาดในระบบ กรุณาลองใหม่อีกครั้ง',
  FILE_TOO_LARGE: 'ไฟล์มีขนาดใหญ่เกินไป',
  TOO_MANY_REQUESTS: 'มีการเรียกใช้งานบ่อยเกินไป กรุณาลองใหม่ภายหลัง',
  ORDER_KEPT: 'คำสั่งซื้อนี้ชำระเงินแล้วหรือกำลังชำระเงินอยู่',
  // Shop: the shipping-address form
  ADDRESS_NAME_REQUIRED: 'กรุณากรอกชื่อผู้รับ',
  ADDRESS_TEL_INVALID: 'กรุณากรอกเบอร์โทรศัพท์ 9-10 หลัก',
  ADDRESS_SUB_DISTRICT_REQUIRED: 'กรุณากรอกแขวง/ตำบล',
  ADDRESS_DISTRICT_REQUIRED: 'กรุณากรอกเขต/อำเภอ',
  ADDRESS_PROVINCE_REQUIRED: 'กรุณากรอกจังหวัด',
  ADDRESS_POSTCODE_INVALID: 'กรุณากรอกรหัสไปรษณีย์ 5 หลัก',
  // speed: the demo shop's notice, also written by the server in the page's first paint
  DEMO_PAYMENTS_NOTICE: 'ร้านค้าทดลอง: การชำระเงินทั้งหมดเป็นการจำลอง ไม่มีการตัดเงินจริง',
  // GB Prime Pay card page (the shop's card form before GB Prime Pay's 3-D Secure)
  GBP_CARD_TITLE: 'ชำระด้วยบัตรเครดิต / เดบิต (GB Prime Pay)',
  GBP_CARD_AMOUNT: 'ยอดชำระ',
  GBP_CARD_NUMBER: 'หมายเลขบัตร',
  GBP_CARD_MONTH: 'เดือนหมดอายุ (MM)',
  GBP_CARD_YEAR: 'ปีหมดอายุ (YY)',
  GBP_CARD_CVV: 'รหัส CVV',
  GBP_CARD_NAME: 'ชื่อบนบัตร',
  GBP_CARD_PAY: 'ชำระเงิน',
  GBP_CARD_GONE: 'ลิงก์ชำระเงินนี้ใช้ไม่ได้แล้ว กรุณากลับไปที่รายการคำสั่งซื้อ',
  // layout 4 and e-mail (one identity per e-mail, the way back in, tax id, withholding)
  MAIL_RATE_LIMITED: 'ส่งอีเมลถึงที่อยู่นี้บ่อยเกินไป กรุณาลองใหม่ภายหลัง',
  TAX_ID_DIGITS_ONLY: 'เลขประจำตัวผู้เสียภาษีต้องเป็นตัวเลข 13 หลักเท่านั้น',
  TAX_ID_CHECK_DIGIT: 'เลขประจำตัวผู้เสียภาษีไม่ถูกต้อง: หลักสุดท้าย (เลขตรวจสอบ) ไม่ตรงกับ 12 หลักแรก กรุณาตรวจสอบอีกครั้ง',
  CITIZEN_ID_DIGITS_ONLY: 'เลขประจำตัวประชาชนต้องเป็นตัวเลข 13 หลักเท่านั้น',
  CITIZEN_ID_CHECK_DIGIT: 'เลขประจำตัวประชาชนไม่ถูกต้อง: หลักสุดท้าย (เลขตรวจสอบ) ไม่ตรงกับ 12 หลักแรก กรุณาตรวจสอบอีกครั้ง',
  WITHHOLDING_JURISTIC_ONLY: 'หัก ณ ที่จ่ายได้เฉพาะนิติบุคคล: เลือกขอใบกำกับภาษีแบบนิติบุคคลและกรอกข้อมูลบริษัท หรือยกเลิกการหัก ณ ที่จ่าย',
  // quote: the order is made from the quote the buyer saw
  QUOTE_STALE: 'ตะกร้าของคุณมีการเปลี่ยนแปลง (จากหน้าต่างอื่นหรือราคาที่ปรับ) กรุณาตรวจสอบยอดที่แสดงใหม่แล้วกดชำระอีกครั้ง',
  // operations (database faults): the database is unreachable for a moment (503 SERVICE_UNAVAILABLE)
  SERVICE_UNAVAILABLE: 'ระบบไม่พร้อมให้บริการชั่วคราว กรุณาลองใหม่อีกครั้งในอีกสักครู่',
  // abuse limits: unpaid orders, coupon uses per account, the short hold, visitor uploads, logins
  UNPAID_ORDERS_LIMIT: 'คุณมีคำสั่งซื้อที่ยังไม่ได้ชำระเงินครบจำนวนแล้ว กรุณาชำระเงินหรือยกเลิกคำสั่งซื้อเดิมก่อน',
  COUPON_ACCOUNT_LIMIT: 'บัญชีนี้ใช้คูปองนี้ครบจำนวนแล้ว',
  HOLD_LAPSED: 'ที่นั่ง สินค้า หรือคูปองของคำสั่งซื้อนี้ถูกปล่อยให้ผู้อื่นแล้วและหมดลง คำสั่งซื้อนี้จึงชำระเงินไม่ได้',
  VISITOR_UPLOADS_FULL: 'พื้นที่อัปโหลดสำหรับผู้เยี่ยมชมเต็มแล้ว กรุณาลองใหม่ภายหลังหรือเข้าสู่ระบบ',
  LOGIN_CHALLENGE_REQUIRED: 'มีการเข้าสู่ระบบผิดหลายครั้ง กรุณารอให้เบราว์เซอร์ตรวจสอบสักครู่แล้วลองอีกครั้ง',
  // GB Prime Pay card page: the browser tokenises the card with GB Prime Pay
  GBP_CARD_UNREACHABLE: 'ติดต่อ GB Prime Pay ไม่ได้ กรุณาลองใหม่อีกครั้ง ข้อมูลบัตรยังไม่ถูกส่ง',
  GBP_CARD_NEEDS_SCRIPT: 'หน้านี้ต้องเปิดใช้ JavaScript: ข้อมูลบัตรถูกส่งจากเบราว์เซอร์ของคุณไปยัง GB Prime Pay โดยตรง',
  // messages by key: texts with parameters (filled at the edge, never concatenated)
  COUPON_NOT_AVAILABLE_CODES: 'คูปองถูกใช้ครบจำนวนแล้ว: {codes}',
  COUPON_ACCOUNT_LIMIT_CODES: 'บัญชีนี้ใช้คูปองครบจำนวนแล้ว: {codes}',
  COUPON_NOT_SUPPORTED_PAYMENT_CODES: 'คูปองนี้ใช้ไม่ได้กับช่องทางการชำระเงินที่เลือก: {codes}',
  COUPON_NOT_FOUND_ID: 'ไม่พบคูปองนี้ ({id})',
  CUSTOM_FIELD_REQUIRED: 'กรุณากรอก {label}',
  // withholding certificate (หนังสือรับรองการหักภาษี ณ ที่จ่าย) of a paid order
  WITHHOLDING_ORDER_NOT_PAID: 'คำสั่งซื้อนี้ยังไม่ได้ชำระเงิน จึงยังส่งหนังสือรับรองการหักภาษี ณ ที่จ่ายไม่ได้',
  WITHHOLDING_NOT_WITHHELD: 'คำสั่งซื้อนี้ไม่มีการหักภาษี ณ ที่จ่าย จึงไม่ต้องส่งหนังสือรับรองการหักภาษี ณ ที่จ่าย',
  WITHHOLDING_CERTIFICATE_RECEIVED: 'ร้านได้รับหนังสือรับรองการหักภาษี ณ ที่จ่ายของคำสั่งซื้อนี้แล้ว',
  // the app's name in its header: the server's first view writes it too, in the page's language
  APP_TITLE: 'คอร์สออนไลน์',
  // the logout call failed (no connection, the server down): the session is still on, on this device
  LOGOUT_FAILED: 'ออกจากระบบไม่สำเร็จ คุณยังเข้าสู่ระบบอยู่ กรุณาตรวจสอบการเชื่อมต่อแล้วลองอีกครั้ง',
  // an order refused because the session had ended on the server (docs/decisions/0038)
  SESSION_ENDED: 'เซสชันหมดอายุ กรุณาเข้าสู่ระบบอีกครั้งแล้วสั่งซื้อใหม่',
  FREE_ORDER_NOT_RECORDED: 'ยังบันทึกคอร์สฟรีของคุณไม่สำเร็จ กรุณาลองอีกครั้ง',
} as const;

export type MessageKey = keyof typeof MESSAGES;

export type MessageLocale = 'th' | 'en';

/** Values a message's `{name}` placeholders are filled with. */
export type MsgParams = Readonly<Record<string, string | number>>;

/** A message by key: what domain, machines and the server carry; made into text only at the edges. */
export interface Msg {
  readonly key: MessageKey;
  readonly params?: MsgParams;
}

/**
 * What a view shows for an error or notice: a catalogue message by key, or a text the server already
 * rendered in the buyer's language (an API answer's `msg` whose code is not a catalogue key).
 */
export type Shown = Msg | string;

/** A message reference with parameters. */
export function msgOf(key: MessageKey, params?: MsgParams): Msg {
  return params ? { key, params } : { key };
}

/** Every key as a parameterless message reference: `MSG.EMPTY_CART` is `{ key: 'EMPTY_CART' }`. */
export const MSG: { readonly [K in MessageKey]: Msg & { readonly key: K } } = Object.freeze(
  Object.fromEntries(Object.keys(MESSAGES).map((key) => [key, Object.freeze({ key })])),
) as { readonly [K in MessageKey]: Msg & { readonly key: K } };

/** True when a string is a catalogue key (e.g. an API error code that has a message of its own). */
export function isMessageKey(value: string): value is MessageKey {
  return Object.hasOwn(MESSAGES, value);
}

/** True for a message reference. */
export function isMsg(value: unknown): value is Msg {
  return value !== null && typeof value === 'object' && typeof (value as { key?: unknown }).key === 'string' && isMessageKey((value as { key: string }).key);
}

/**
 * The English table (MESSAGES_EN, domain/messages-en.ts) once whoever reads it has registered it:
 * the server at start, the browser with its English catalogue's chunk (src/i18n/en.ts), so a page
 * read in Thai does not carry it. Until then English is answered in Thai, as the UI's labels are
 * before the English chunk has arrived (src/i18n/messages.ts `t`).
 */
let messagesEn: Readonly<Record<MessageKey, string>> | null = null;

/** Registers the English table (null: none, tests of the Thai fallback). */
export function registerMessagesEn(table: Readonly<Record<MessageKey, string>> | null): void {
  messagesEn = table;
}

/** True when English messages can be answered in English. */
export function hasMessagesEn(): boolean {
  return messagesEn !== null;
}

/** The text for a key, Thai by default. */
export function message(key: MessageKey, locale: MessageLocale = 'th'): string {
  return locale === 'en' && messagesEn ? messagesEn[key] : MESSAGES[key];
}

/** A message reference as text in a locale, `{name}` placeholders filled from its params. */
export function renderMsg(m: Msg, locale: MessageLocale = 'th'): string {
  const text = message(m.key, locale);
  const params = m.params;
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => (Object.hasOwn(params, name) ? String(params[name]) : whole));
}

/** What a view shows, as text: a message rendered in the locale, a server's text as it is. */
export function renderShown(shown: Shown | null | undefined, locale: MessageLocale = 'th'): string {
  if (shown === null || shown === undefined) return '';
  return typeof shown === 'string' ? shown : renderMsg(shown, locale);
}

/** Every locale, Thai first. */
export const MESSAGE_LOCALES: readonly MessageLocale[] = ['th', 'en'];

/** The locale of a language tag or an Accept-Language value ('en-US,en;q=0.9', 'th'); null for neither. */
export function localeOfTag(tag: string | null | undefined): MessageLocale | null {
  const base = (tag ?? '').trim().toLowerCase().split(/[-_;]/)[0];
  return base === 'th' || base === 'en' ? base : null;
}

/**
 * The preferred supported locale of an Accept-Language header, by q-value (RFC 9110), first listed
 * first on ties; null when it names neither Thai nor English.
 */
export function localeOfAcceptLanguage(header: string | null | undefined): MessageLocale | null {
  const ranked = (header ?? '')
    .split(',')
    .map((part, i) => {
      const [tag = '', ...params] = part.split(';').map((x) => x.trim());
      const q = params.find((p) => p.startsWith('q='));
      return { locale: localeOfTag(tag), q: q ? Number(q.slice(2)) : 1, i };
    })
    .filter((r): r is { locale: MessageLocale; q: number; i: number } => r.locale !== null && Number.isFinite(r.q) && r.q > 0)
    .sort((a, b) => b.q - a.q || a.i - b.i);
  return ranked[0]?.locale ?? null;
}
