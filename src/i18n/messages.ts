/**
 * The UI's labels in Thai (TH; English: EN in ./en.ts, same keys, loaded on demand) and the only
 * place a view turns a message into text.
 *
 * Layout (one catalogue per language, each in two parts with disjoint keys and no text written
 * twice): the spec's messages that domain, machines and the server carry by key live in
 * domain/messages.ts (MESSAGES) and domain/messages-en.ts (MESSAGES_EN, in the English chunk); the
 * UI's own labels live here and in ./en.ts. A label whose words are one of those messages refers to
 * it instead of repeating the text.
 * A view renders `t('payNow')` for a label, `msg('EMPTY_CART')` for a message key and `tm(shown)`
 * for what a machine holds (a `Msg` by key, or a text the server already rendered).
 */
import { MESSAGES, message, registerMessagesEn, renderShown, type MessageKey, type MessageLocale, type Shown } from '../../domain/messages';
import { formatMoney, isFreeOrder, type Currency, type MoneyLocale } from '../../domain/money';
import { PAYMENT_METHOD_NAMES, isPaymentMethodId } from '../../domain/payment-methods';
import { getLocale, intlTag, setLocale, type Locale } from './locale';

export { getLocale, initLocale, setLocale, subscribeLocale, type Locale } from './locale';

export const TH = {
  home: 'หน้าแรก',
  close: 'ปิด',
  cancel: 'ยกเลิก',
  confirm: 'ยืนยัน',
  save: 'บันทึก',
  loading: 'กำลังโหลด…',
  free: 'ฟรี',
  notifications: 'การแจ้งเตือน',
  notFound: MESSAGES.PAGE_NOT_FOUND,
  backHome: 'กลับหน้าแรก',
  cartFailTitle: 'เกิดข้อผิดพลาด กรุณาลองใหม่อีกครั้ง',
  required: 'จำเป็น',

  // Upload widget
  uploadImage: 'อัพโหลดรูปภาพ',
  uploadVideo: 'อัพโหลดวิดีโอ',
  deleteFile: 'ลบไฟล์ {name}',
  fileList: 'ไฟล์ที่เลือก',
  previewOf: 'ตัวอย่าง {name}',

  // Course page
  courseDetail: 'รายละเอียดคอร์ส',
  courseContent: 'เนื้อหาคอร์ส',
  howToBuy: 'วิธีการสั่งซื้อ',
  questions: 'คำถามและความคิดเห็น',
  relatedCourses: 'คอร์สที่เกี่ยวข้อง',
  sameTeacher: 'คอร์สจากผู้สอนคนเดียวกัน',
  sameGroup: 'คอร์สในกลุ่มเดียวกัน',
  bestsellers: 'คอร์สขายดี',
  instructor: 'ผู้สอน',
  startingPrice: 'ราคาเริ่มต้น',
  register: 'สมัครเรียน',
  buyNow: 'ซื้อเลย',
  addToCart: 'เพิ่มลงรถเข็น',
  pricing: 'รูปแบบราคา',
  sections: '{count} บท',
  lectures: '{count} บทเรียน',
  previewLecture: 'ดูตัวอย่าง',
  playlist: 'รายการวิดีโอ',
  watchPreview: 'ดูวิดีโอตัวอย่าง',
  seatsLeft: 'เหลือ {count} ที่นั่ง',
  stockLeft: 'เหลือ {count} ชิ้น',
  noComments: 'ยังไม่มีคำถามหรือความคิดเห็น',
  stickyNav: 'เมนูคอร์ส',

  // Cart
  cart: 'รถเข็น',
  cartTotal: 'ยอดรวม',
  subtotal: 'ราคารวม',
  discount: 'ส่วนลด',
  withholding: 'หักภาษี ณ ที่จ่าย',
  shippingFee: 'ค่าจัดส่ง',
  payable: MESSAGES.GBP_CARD_AMOUNT,
  removeLine: 'นำออก: {name} (จากรถเข็น)',
  quantity: 'จำนวน',
  coupon: 'คูปองส่วนลด',
  couponCode: 'รหัสคูปอง',
  applyCoupon: 'ใช้คูปอง',
  removeCoupon: 'นำคูปอง {code} ออก',
  promotions: 'โปรโมชั่น',
  noPromotion: 'ไม่ใช้โปรโมชั่น',
  switchToPromotionTitle: 'เปลี่ยนไปใช้โปรโมชั่น?',
  switchToPromotionBody: 'คูปองที่ใช้อยู่จะถูกยกเลิก เพราะใช้ร่วมกับโปรโมชั่นไม่ได้',
  switchToCouponTitle: 'เปลี่ยนไปใช้คูปอง?',
  switchToCouponBody: 'โปรโมชั่นที่เลือกอยู่จะถูกยกเลิก เพราะใช้ร่วมกับคูปองไม่ได้',
  currency: 'สกุลเงิน',
  paymentMethods: 'ช่องทางการชำระเงิน',
  payNow: MESSAGES.GBP_CARD_PAY,
  placeOrder: 'สั่งซื้อ',
  processing: 'กำลังดำเนินการ…',
  sendToChulabook: 'ส่งไปยัง chulabook',
  taxInvoice: 'ขอใบกำกับภาษี',
  requestTaxInvoice: 'ต้องการใบกำกับภาษี',
  withholdingTax: 'หักภาษี ณ ที่จ่าย',
  withholdingPercent: 'อัตราหักภาษี ณ ที่จ่าย',
  shippingAddress: 'ที่อยู่จัดส่ง',
  chooseShippingFee: 'ตัวเลือกการจัดส่ง',

  // Registration / login
  login: 'เข้าสู่ระบบ',
  logout: 'ออกจากระบบ',
  loginTitle: 'เข้าสู่ระบบ',
  registerTitle: 'สมัครสมาชิก',
  toRegister: 'ยังไม่มีบัญชี? สมัครสมาชิก',
  toLogin: 'มีบัญชีแล้ว? เข้าสู่ระบบ',
  username: 'ชื่อผู้ใช้',
  password: 'รหัสผ่าน',
  passwordConfirm: 'ยืนยันรหัสผ่าน',
  forgotPassword: 'ลืมรหัสผ่าน?',
  firstname: 'ชื่อ',
  lastname: 'นามสกุล',
  nickname: 'ชื่อเล่น',
  email: 'อีเมล',
  tel: 'เบอร์โทรศัพท์',
  address: 'ที่อยู่',
  userGroup: 'กลุ่มผู้ใช้',
  profileImage: 'รูปโปรไฟล์',
  contactInfo: 'ข้อมูลผู้ซื้อ',
  loginInfo: 'ข้อมูลเข้าสู่ระบบ',
  usernameHint: 'ใช้ได้เฉพาะตัวอักษร ตัวเลข และ @ - _ .',
  socialLogin: 'เข้าสู่ระบบด้วย',
  loggedInAs: 'เข้าสู่ระบบเป็น {name}',
  choose: 'เลือก',

  // Tax
  taxModalTitle: 'ข้อมูลใบกำกับภาษี',
  personType: 'ประเภทผู้เสียภาษี',
  normalPerson: 'บุคคลธรรมดา',
  juristicPerson: 'นิติบุคคล',
  companyName: 'ชื่อบริษัท',
  branch: 'สาขา (ชื่อหรือเลขที่สาขา)',
  taxId: 'เลขประจำตัวผู้เสียภาษี',
  citizenId: 'เลขประจำตัวประชาชน',
  taxAddress: 'ที่อยู่สำหรับออกใบกำกับภาษี',
  deliveryByTaxAddress: 'จัดส่งใบกำกับภาษีตามที่อยู่นี้',
  deliveryAddress: 'ที่อยู่สำหรับจัดส่งใบกำกับภาษี',
  companyCertificate: 'หนังสือรับรองบริษัท',
  changePersonTypeTitle: 'เปลี่ยนประเภทผู้เสียภาษี',
  changePersonTypeBody: 'การหักภาษี ณ ที่จ่ายใช้ได้เฉพาะนิติบุคคลที่ขอใบกำกับภาษี ต้องการเปลี่ยนเป็นนิติบุคคลหรือไม่?',

  // Payments
  bankTransfer: 'โอนเงินผ่านธนาคาร',
  bankAccounts: 'บัญชีสำหรับโอนเงิน',
  notifyPayment: MESSAGES.PAYMENT_NOTICE_TITLE,
  notifyLater: MESSAGES.PAYMENT_NOTICE_LATER,
  contactName: 'ชื่อผู้ติดต่อ',
  transferAmount: 'จำนวนเงินที่โอน',
  originBank: 'ธนาคารต้นทาง',
  destinationAccount: 'บัญชีปลายทาง',
  transferDate: 'วันที่โอน',
  transferTime: 'เวลาที่โอน',
  description: 'หมายเหตุ',
  slip: 'หลักฐานการโอนเงิน',
  slipHint: 'รูปภาพ 1 ไฟล์ (jpg, png, gif) ขนาดแนะนำ 1500x500',
  paypalTitle: 'ชำระเงินด้วย PayPal',
  payWithPaypal: 'ชำระเงินด้วย PayPal',
  scbQrTitle: 'ชำระเงินด้วย QR Code',
  qrExpiresIn: 'QR Code หมดอายุใน {time}',
  qrExpired: 'QR Code หมดอายุแล้ว',
  qrAlt: 'QR Code สำหรับชำระเงิน',
  done: 'เสร็จสิ้น',
  tryAgain: 'ลองอีกครั้ง',
  promptPayTitle: 'ชำระเงินด้วยพร้อมเพย์',
  promptPayWaiting: 'สแกน QR Code เพื่อชำระเงิน หน้านี้จะไปต่อเองเมื่อชำระเงินสำเร็จ',
  cardTitle: 'ชำระเงินด้วยบัตรเครดิต/เดบิต',
  cardNumber: MESSAGES.GBP_CARD_NUMBER,
  cardName: MESSAGES.GBP_CARD_NAME,
  cardMonth: MESSAGES.GBP_CARD_MONTH,
  cardYear: 'ปีหมดอายุ (YYYY)',
  cardCvv: 'CVV',
  pay: 'ชำระเงิน {amount}',
  authorizing: 'กำลังไปยังหน้ายืนยันตัวตน 3-D Secure…',
  confirmingPayment: 'กำลังตรวจสอบการชำระเงิน…',
  redirecting: 'กำลังไปยังหน้าชำระเงิน…',
  installment: 'ผ่อนชำระ',
  paymentReturnTitle: 'ผลการชำระเงินด้วยบัตร',

  // After payment
  thankYouTitle: 'ขอบคุณสำหรับการสั่งซื้อ',
  thankYouBody: 'เราได้รับคำสั่งซื้อของคุณแล้ว',
  orderNumber: 'เลขที่คำสั่งซื้อ',
  toMyOrders: 'ดูคำสั่งซื้อของฉัน',
  myOrders: 'คำสั่งซื้อของฉัน',
  noOrders: 'ยังไม่มีคำสั่งซื้อ',
  orderDate: 'วันที่สั่งซื้อ',
  orderStatus: 'สถานะ',
  orderTotal: MESSAGES.GBP_CARD_AMOUNT,
  status_notYetReceived: 'รอชำระเงิน',
  status_pendingApproved: 'รอตรวจสอบ',
  status_approved: 'ชำระเงินแล้ว',
  status_rejected: 'ถูกปฏิเสธ',
  status_cancelled: 'ยกเลิกแล้ว',
  promotionTitle: 'โปรโมชั่น',
  coursesInPromotion: 'คอร์สที่ร่วมโปรโมชั่น',
  forgotPassTitle: 'ลืมรหัสผ่าน',
  forgotPassBody: 'กรุณาติดต่อผู้ดูแลระบบเพื่อรีเซ็ตรหัสผ่าน',
  allCourses: 'คอร์สทั้งหมด',
  searchCourses: 'ค้นหาคอร์ส',
  search: 'ค้นหา',
  noCourses: MESSAGES.COURSE_NOT_FOUND,
  sessionExpiredTitle: 'เซสชันหมดอายุ',
  sessionExpiredBody: 'กรุณาเข้าสู่ระบบอีกครั้ง',
  signedOutTitle: 'บัญชีนี้ถูกออกจากระบบ',
  signedOutBody: 'บัญชีของคุณไม่ได้รับอนุญาตให้ใช้งาน',
  // security / modes; the demo shop's notice is domain/messages DEMO_PAYMENTS_NOTICE (the server writes it too)

  // Shop: cart page, add to cart, products
  cartEmpty: MESSAGES.EMPTY_CART,
  remove: 'นำออก',
  cartTitle: 'รถเข็นของคุณ',
  addedToCart: 'เพิ่ม {name} ลงรถเข็นแล้ว',
  alreadyInCart: '{name} อยู่ในรถเข็นแล้ว',
  noPlanToAdd: 'ยังไม่มีรูปแบบราคาสำหรับ {name}',
  viewCart: 'ดูรถเข็น',
  continueShopping: 'เลือกซื้อต่อ',
  loginToCheckout: 'เข้าสู่ระบบเพื่อสั่งซื้อ หรือสมัครสมาชิก',
  books: 'หนังสือและสินค้า',
  searchProducts: 'ค้นหาหนังสือและสินค้า',
  noProducts: 'ไม่พบสินค้า',

  // Payments: order outcome, pay again, cancel
  outcome_paid: 'ชำระเงินแล้ว',
  outcome_awaitingPayment: 'รอชำระเงิน',
  outcome_awaitingApproval: 'รอตรวจสอบการชำระเงิน',
  outcome_failed: 'ชำระเงินไม่สำเร็จ',
  outcome_cancelled: 'ยกเลิกแล้ว',
  outcome_expired: 'หมดเวลาชำระเงิน',
  outcome_rejected: 'ถูกปฏิเสธ',
  payFail_insufficientFunds: 'ยอดเงินในบัตรไม่เพียงพอ',
  payFail_cardLostOrStolen: 'บัตรถูกระงับ (แจ้งหายหรือถูกขโมย)',
  payFail_declined: 'ธนาคารปฏิเสธการชำระเงิน',
  payFail_invalidCard: 'ข้อมูลบัตรไม่ถูกต้อง',
  payFail_authenticationFailed: 'การยืนยันตัวตน 3-D Secure ไม่สำเร็จ',
  payFail_cancelled: 'การชำระเงินถูกยกเลิก',
  payFail_expired: 'หมดเวลาชำระเงิน',
  payFail_processingError: 'ระบบชำระเงินขัดข้อง',
  thankYouPending: 'คำสั่งซื้อ {order} ยังไม่ได้ชำระเงิน',
  thankYouAwaitingApproval: 'เราได้รับแจ้งการชำระเงินแล้ว กำลังรอตรวจสอบ',
  thankYouNotFound: 'ไม่พบคำสั่งซื้อนี้',
  thankYouNotFoundBody: 'ลิงก์นี้ไม่ตรงกับคำสั่งซื้อของคุณ',
  thankYouLogin: 'กรุณาเข้าสู่ระบบเพื่อดูสถานะคำสั่งซื้อ',
  orderClosed: 'คำสั่งซื้อ {order} ไม่สามารถชำระเงินได้แล้ว',
  payOrder: MESSAGES.GBP_CARD_PAY,
  payOrderAgain: 'ชำระเงินอีกครั้ง',
  continuePayingOrder: 'ชำระเงินคำสั่งซื้อ {order} ต่อ',
  cancelOrder: 'ยกเลิกคำสั่งซื้อ',
  cancelOrderConfirm: 'ยกเลิกคำสั่งซื้อ {order}? ที่นั่งและคูปองจะถูกคืน',
  orderCancelled: 'ยกเลิกคำสั่งซื้อ {order} แล้ว',
  orderCancelFailed: 'ยกเลิกคำสั่งซื้อไม่สำเร็จ กรุณาลองอีกครั้ง',
  payOrderTitle: 'ชำระเงินคำสั่งซื้อ {order}',
  chooseMethod: 'เลือกวิธีชำระเงิน',
  changeMethod: 'เปลี่ยนวิธีชำระเงิน',
  payLaterLeave: 'ไว้ชำระภายหลัง',
  methodsFailed: 'โหลดวิธีชำระเงินไม่สำเร็จ',
  paymentActions: 'การชำระเงิน',

  // i18n: header, language switch, plan terms, method hints, countdown
  skipToContent: 'ข้ามไปยังเนื้อหา',
  mainMenu: 'เมนูหลัก',
  language: 'ภาษา',
  langTh: 'ไทย',
  langEn: 'English',
  purchaseArea: 'สั่งซื้อ',
  membersOnly: 'สำหรับสมาชิก — กรุณาเข้าสู่ระบบ',
  accessLeft: 'เวลาเรียนคงเหลือ:',
  accessUnlimited: 'ไม่จำกัดเวลา',
  accessExpired: 'หมดเวลาเรียนแล้ว',
  accessDaysClock: '{days} วัน {clock}',
  planType_Period: 'ตามช่วงเวลา',
  planType_Actual: 'ตามเวลาเรียนจริง',
  'planType_One-Time Payment': 'ชำระครั้งเดียว',
  planType_Free: 'ฟรี',
  'term_Day(s)_one': '{count} วัน',
  'term_Day(s)_other': '{count} วัน',
  'term_Month(s)_one': '{count} เดือน',
  'term_Month(s)_other': '{count} เดือน',
  'term_Year(s)_one': '{count} ปี',
  'term_Year(s)_other': '{count} ปี',
  'term_Hour(s)_one': '{count} ชั่วโมง',
  'term_Hour(s)_other': '{count} ชั่วโมง',
  termUnlimited: 'ไม่จำกัดเวลา',
  termPlus: '{first} + {second}',
  methodHint_2: 'ชำระผ่านหน้าต่าง PayPal',
  methodHint_3: 'กรอกข้อมูลบัตรในขั้นตอนถัดไป ข้อมูลบัตรถูกเข้ารหัสก่อนส่ง',
  methodHint_4: 'สแกนคิวอาร์โค้ดด้วยแอปธนาคาร',
  methodHint_8: 'กรอกข้อมูลบัตรในขั้นตอนถัดไป ข้อมูลบัตรส่งตรงถึงผู้ให้บริการ ไม่ผ่านเว็บไซต์ของเรา',
  methodHint_9: 'สแกนคิวอาร์พร้อมเพย์ หน้านี้จะไปต่อเองเมื่อชำระเงินสำเร็จ',
  methodHint_10: 'ผ่อนชำระผ่านหน้าชำระเงินของ 2C2P',
  methodHint_11: 'ชำระด้วยบัตรผ่านหน้าชำระเงินของ GB Prime Pay',
  methodHint_12: 'สแกนคิวอาร์พร้อมเพย์ (GB Prime Pay)',
  methodHint_13: 'ชำระผ่านหน้าชำระเงินของ PaySolutions',
  lockedLecture: 'ต้องซื้อคอร์สก่อนจึงจะดูได้',
  back: 'กลับ',
  sections_one: '{count} บท',
  lectures_one: '{count} บทเรียน',
  orderItems: 'รายการที่สั่งซื้อ',
  qtyTimes: 'จำนวน {qty}',
  addressNew: 'เพิ่มที่อยู่ใหม่',
  addressEdit: 'แก้ไขที่อยู่',
  addressLogin: 'กรุณาเข้าสู่ระบบเพื่อเลือกหรือเพิ่มที่อยู่จัดส่ง',
  addressName: 'ชื่อผู้รับ',
  addressTel: 'เบอร์โทรศัพท์',
  addressLine: 'ที่อยู่',
  addressSubDistrict: 'แขวง/ตำบล',
  addressDistrict: 'เขต/อำเภอ',
  addressProvince: 'จังหวัด',
  addressPostcode: 'รหัสไปรษณีย์',
  // scenarios: back from a provider's page without paying
  returnedNotPaid: 'ยังไม่ได้รับการชำระเงินสำหรับคำสั่งซื้อนี้ หากชำระแล้วกดตรวจสอบอีกครั้ง หรือไปที่คำสั่งซื้อของฉันเพื่อชำระด้วยวิธีอื่นหรือยกเลิก',
  returnedUnchecked: 'ตรวจสอบสถานะการชำระเงินไม่สำเร็จ กรุณาตรวจสอบอีกครั้ง',
  checkPaymentAgain: 'ตรวจสอบอีกครั้ง',
  // prices in the chosen currency, the product page
  usdNotOffered: 'บางรายการไม่มีราคาเป็นดอลลาร์สหรัฐ จึงแสดงและชำระเป็นบาท',
  productDetail: 'รายละเอียดสินค้า',
  productType: 'ประเภท',
  productTypeName: 'หนังสือ / สินค้า',
  productPrice: 'ราคา',
  productInStock: 'มีสินค้า',
  productSoldOut: MESSAGES.BUY_OUT_OF_STOCK,
  productGallery: 'รูปสินค้า',
  productShowPicture: 'ดูรูปที่ {n}',
  productBuy: 'สั่งซื้อ',
  // orders: the whole story of an order (thank-you page, order list)
  paymentMethod: 'ช่องทางการชำระเงิน',
  orderSummary: 'สรุปคำสั่งซื้อ',
  nextPaid: 'ชำระเงินเรียบร้อยแล้ว เข้าเรียนได้ทันทีจากหน้าคอร์ส',
  nextOpenCourse: 'ไปที่คอร์ส {name}',
  nextPay: 'คำสั่งซื้อนี้ยังไม่ได้ชำระเงิน ชำระได้จากคำสั่งซื้อของฉัน ด้วยช่องทางเดิมหรือช่องทางอื่น หรือยกเลิกคำสั่งซื้อ',
  nextAwaitingApproval: 'ร้านกำลังตรวจสอบการชำระเงิน หน้านี้จะอัปเดตเองเมื่อได้รับการอนุมัติ',
  nextClosed: 'คำสั่งซื้อนี้ปิดแล้ว หากยังต้องการคอร์ส สั่งซื้อใหม่ได้จากหน้าคอร์ส',
  // layout 4 (one identity per e-mail, the way back in, card and tax-id fields, error summary)
  l4ErrorSummary: 'กรุณาแก้ไขข้อมูลต่อไปนี้',
  l4EmailTakenMember: 'อีเมลนี้มีบัญชีสมาชิกอยู่แล้ว เข้าสู่ระบบเพื่อซื้อด้วยบัญชีนั้น หรือรับลิงก์เข้าสู่ระบบทางอีเมล',
  l4EmailTakenBuyer: 'คุณเคยซื้อด้วยอีเมลนี้แล้ว เพื่อให้คำสั่งซื้อทั้งหมดอยู่ด้วยกัน กรุณาเข้าสู่ระบบด้วยลิงก์ที่เราส่งไปที่อีเมลนี้',
  l4LogIn: 'เข้าสู่ระบบ',
  l4ForgotPassword: 'ลืมรหัสผ่าน',
  l4SendSignInLink: 'ส่งลิงก์เข้าสู่ระบบให้ฉัน',
  l4SignInLinkSent: 'ส่งลิงก์เข้าสู่ระบบไปที่ {email} แล้ว เปิดลิงก์ในอีเมลเพื่อซื้อต่อ (ใช้ได้ครั้งเดียว ภายใน 30 นาที)',
  l4SignInLinkFailed: 'ส่งลิงก์ไม่สำเร็จ: {message}',
  l4TaxIdHint: 'ตัวเลข 13 หลัก (เว้นวรรคหรือขีดได้) หลักสุดท้ายเป็นเลขตรวจสอบที่คำนวณจาก 12 หลักแรก',
  l4SignedIn: 'คุณเข้าสู่ระบบด้วยลิงก์จากอีเมลแล้ว',
  l4SetPasswordTitle: 'ตั้งรหัสผ่าน',
  l4SetPasswordHint: 'คุณซื้อแบบไม่สมัครสมาชิก ตั้งชื่อผู้ใช้และรหัสผ่านเพื่อเข้าสู่ระบบตามปกติครั้งต่อไป (ไม่บังคับ)',
  l4SetPasswordSave: 'บันทึกรหัสผ่าน',
  l4SetPasswordDone: 'บันทึกรหัสผ่านแล้ว ครั้งต่อไปเข้าสู่ระบบด้วยชื่อผู้ใช้ {username}',
  l4PersonTypeCleared: 'เปลี่ยนประเภทบุคคลแล้ว ข้อมูลใบกำกับภาษีถูกล้าง กรุณากรอกใหม่',
  l4WithholdingNeedsJuristic: 'หัก ณ ที่จ่ายได้เฉพาะนิติบุคคล: เลือก "ต้องการใบกำกับภาษี" และ "นิติบุคคล" ด้านล่าง',
  // PayPal capture pending (payments: pending is not failed)
  paypalCapturePending: 'PayPal กำลังตรวจสอบการชำระเงินนี้ คำสั่งซื้อยังรอการชำระเงินอยู่ และจะได้รับการยืนยันเมื่อ PayPal แจ้งผล ไม่ต้องชำระซ้ำ',
  paypalCapturePendingOk: 'ไปที่คำสั่งซื้อของฉัน',
  // abuse limits: the short hold on scarce things, the login check
  holdUntil: 'ที่นั่ง สินค้า หรือคูปองจำนวนจำกัดในคำสั่งซื้อนี้จองไว้ให้คุณถึง {time} หากยังไม่เริ่มชำระเงินภายในเวลานั้น จะถูกปล่อยให้ผู้อื่นซื้อได้',
  holdReleased: 'ที่นั่ง สินค้า หรือคูปองจำนวนจำกัดของคำสั่งซื้อนี้ถูกปล่อยให้ผู้อื่นแล้วเมื่อ {time} คุณยังชำระเงินได้ถึง {cancel} หากยังเหลืออยู่',
  holdReleasedNoCancel: 'ที่นั่ง สินค้า หรือคูปองจำนวนจำกัดของคำสั่งซื้อนี้ถูกปล่อยให้ผู้อื่นแล้วเมื่อ {time} คุณยังชำระเงินได้หากยังเหลืออยู่',
  loginChallengeSolving: 'มีการเข้าสู่ระบบผิดหลายครั้งสำหรับบัญชีนี้ เบราว์เซอร์กำลังตรวจสอบ กรุณารอสักครู่…',
  // payment modals: every state closable and answering (PayPal's reasons, ways on)
  paypalProblem_declined: 'PayPal แจ้งว่าบัตรหรือบัญชีถูกปฏิเสธ ยังไม่มีการตัดเงิน ลองชำระด้วย PayPal อีกครั้ง (เลือกบัตรอื่นใน PayPal) หรือชำระด้วยวิธีอื่น',
  paypalProblem_cancelled: 'หน้าต่าง PayPal ถูกปิดก่อนยืนยัน ยังไม่มีการชำระเงิน ชำระด้วย PayPal อีกครั้ง หรือชำระด้วยวิธีอื่น',
  paypalProblem_unreachable: 'ติดต่อ PayPal ไม่ได้ (หรือเบราว์เซอร์บล็อกหน้าต่าง PayPal) ยังไม่มีการชำระเงิน ลองอีกครั้ง หรือชำระด้วยวิธีอื่น',
  paypalProblem_unconfirmed: 'ยังยืนยันผลการชำระเงินกับ PayPal ไม่ได้ อาจชำระสำเร็จแล้ว กรุณาอย่าชำระซ้ำ ดูสถานะได้ที่คำสั่งซื้อของฉัน',
  paypalOtherMethod: 'ชำระด้วยวิธีอื่น',
  // tax documents: the order list links each receipt, tax invoice and credit note (PDF)
  documentsTitle: 'เอกสาร',
  docKind_receipt: 'ใบเสร็จรับเงิน',
  docKind_tax_invoice: 'ใบกำกับภาษี',
  docKind_credit_note: 'ใบลดหนี้',
  documentLink: '{kind} เลขที่ {number} (PDF)',
  // withholding certificate: the buyer sends the shop its withholding tax certificate from the order list
  whtTitle: 'หนังสือรับรองการหักภาษี ณ ที่จ่าย',
  whtWithheld: 'หักภาษี ณ ที่จ่ายไว้ {amount} กรุณาส่งหนังสือรับรองการหักภาษี ณ ที่จ่าย (50 ทวิ) ให้ร้าน',
  whtChoose: 'เลือกไฟล์หนังสือรับรอง (PDF หรือรูปภาพ)',
  whtChooseAnother: 'ส่งไฟล์ใหม่แทน',
  whtUploading: 'กำลังอัปโหลด {name}…',
  whtWaiting: 'ส่งแล้ว ({name}) รอร้านตรวจรับ',
  whtReceived: 'ร้านได้รับหนังสือรับรองการหักภาษี ณ ที่จ่ายแล้ว',
  whtRejected: 'ร้านไม่รับหนังสือรับรองฉบับก่อน: {reason} กรุณาส่งฉบับใหม่',
  whtFailed: 'อัปโหลดไม่สำเร็จ: {reason}',
  whtRetry: 'ลองอีกครั้ง',
  omiseNotConfirmedYet: 'ยังไม่ได้รับการยืนยันการชำระเงิน หน้านี้จะตรวจสอบให้อีกครั้งทุกไม่กี่วินาที หรือไปที่คำสั่งซื้อของฉันเพื่อชำระด้วยวิธีอื่นหรือยกเลิก',
  loggingOut: 'กำลังออกจากระบบ…',
  problemToOrders: 'ไปที่คำสั่งซื้อของฉัน',
  getFreeOrder: 'รับคอร์สฟรี',
  getFreeOrderTitle: 'รับคอร์สฟรีจากคำสั่งซื้อ {order}',
} as const;

export type UiKey = keyof typeof TH;

/**
 * English: its own chunk (src/i18n/en.ts), loaded when the page starts in English or the buyer
 * switches to it (most buyers read Thai; the course route's first load does not carry it).
 * Until it is loaded, `t` answers in Thai.
 */
let EN: Record<UiKey, string> | null = null;
let englishLoad: Promise<void> | null = null;

/**
 * The loader and tests: the English tables, the UI's labels and the spec's messages (both null: not
 * loaded; domain/messages.ts answers a message in Thai until its English table is registered).
 */
export function registerEnglish(table: Record<UiKey, string> | null, messages: Readonly<Record<MessageKey, string>> | null): void {
  EN = table;
  registerMessagesEn(messages);
}

/** Loads the English tables once (again after a failed attempt). */
export function loadEnglish(): Promise<void> {
  if (EN) return Promise.resolve();
  englishLoad ??= import('./en').then(
    (m) => registerEnglish(m.EN, m.MESSAGES_EN),
    (error: unknown) => {
      englishLoad = null;
      throw error;
    },
  );
  return englishLoad;
}

/** The language switch: English is loaded first, then every view changes at once. */
export async function switchLocale(locale: Locale): Promise<void> {
  if (locale === 'en') await loadEnglish();
  setLocale(locale);
}

/**
 * Provider failure reasons by the provider's code (the payments area fills these: `omise:insufficient_fund`
 * → text). Same keys in both; a code not listed falls back to the spec's PAYMENT_FAILED message.
 */
export const DECLINE_REASONS: Record<MessageLocale, Record<string, string>> = {
  th: {},
  en: {},
};

// Intl objects are costly to build (locale data is loaded on the first one): one per locale tag.
const pluralRulesByTag = new Map<string, Intl.PluralRules>();
function pluralRules(): Intl.PluralRules {
  const tag = intlTag();
  let rules = pluralRulesByTag.get(tag);
  if (!rules) pluralRulesByTag.set(tag, (rules = new Intl.PluralRules(tag)));
  return rules;
}
const dateTimeByTag = new Map<string, Intl.DateTimeFormat>();
function dateTimeFormat(): Intl.DateTimeFormat {
  const tag = intlTag();
  let f = dateTimeByTag.get(tag);
  if (!f) dateTimeByTag.set(tag, (f = new Intl.DateTimeFormat(tag, { dateStyle: 'medium', timeStyle: 'short', timeZone: 'Asia/Bangkok' })));
  return f;
}

/** A UI label in the current locale, `{name}` placeholders filled from `vars`. */
export function t(key: UiKey, vars?: Record<string, string | number>): string {
  // A numeric `count` picks the plural form the locale needs (`lectures_one`: '1 lecture') when the catalogue has one.
  if (typeof vars?.count === 'number') {
    const plural = `${key}_${pluralRules().select(vars.count)}`;
    if (Object.hasOwn(TH, plural)) key = plural as UiKey;
  }
  const text: string = getLocale() === 'en' && EN ? EN[key] : TH[key];
  if (!vars) return text;
  return text.replace(/\{(\w+)\}/g, (m, name: string) => (name in vars ? String(vars[name]) : m));
}

/** A spec message from domain/messages.ts in the current locale. */
export function msg(key: MessageKey): string {
  return message(key, getLocale());
}

/**
 * What a machine holds for the buyer to read, in the current locale: a message by key rendered with
 * its params, or a text the server already rendered in the buyer's language shown as it is.
 */
export function tm(shown: Shown | null | undefined): string {
  return renderShown(shown, getLocale());
}

/** Money through Intl in the current locale. */
export function money(minor: number, currency: Currency): string {
  return formatMoney(minor, currency, intlTag() as MoneyLocale);
}

/** A date and time through Intl in the current locale (the shop's time zone, Asia/Bangkok). */
export function dateTime(value: string | number | Date): string {
  const d = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(d.getTime())) return String(value);
  return dateTimeFormat().format(d);
}

/** A payment method's name in the current locale (the server's name for an unknown id). */
export function methodName(id: number, fallback?: string | null): string {
  return isPaymentMethodId(id) ? PAYMENT_METHOD_NAMES[id][getLocale()] : (fallback ?? String(id));
}

/**
 * How an order is paid, as the order list and the thank-you page say it: a free order (total 0) is
 * recorded by its free report, not paid by the method it was placed with; '—' when it has none.
 */
export function orderMethodName(order: { payment_method_id?: number | null; total_amount: number }): string {
  if (isFreeOrder(order.total_amount)) return t('free');
  return order.payment_method_id === null || order.payment_method_id === undefined ? '—' : methodName(order.payment_method_id);
}

/** An order status in the current locale (the code itself when unknown). */
export function orderStatus(status: string): string {
  const key = `status_${status}`;
  return Object.hasOwn(TH, key) ? t(key as UiKey) : status;
}

/** A plan type in the current locale. */
export function planTypeName(type: string): string {
  const key = `planType_${type}`;
  return Object.hasOwn(TH, key) ? t(key as UiKey) : type;
}

/** '20 Hour(s)' as the locale says it: '20 ชั่วโมง', '20 hours', '1 hour'. */
export function termText(count: number, unit: string): string {
  const form = pluralRules().select(count) === 'one' ? 'one' : 'other';
  const key = `term_${unit}_${form}`;
  return Object.hasOwn(TH, key) ? t(key as UiKey, { count }) : `${count} ${unit}`;
}

/** A provider's failure reason for its code, else the spec's PAYMENT_FAILED text. */
export function declineReason(provider: string, code: string | null | undefined): string {
  const table = DECLINE_REASONS[getLocale()];
  const key = `${provider}:${code ?? ''}`;
  return Object.hasOwn(table, key) ? table[key]! : msg('PAYMENT_FAILED');
}

/** The short "how it goes" line under a chosen payment method; null when it has none. */
export function methodHint(methodId: number): string | null {
  const key = `methodHint_${methodId}`;
  return Object.hasOwn(TH, key) ? t(key as UiKey) : null;
}
