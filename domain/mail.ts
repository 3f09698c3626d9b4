/**
 * The e-mails the server sends, in the language the buyer chose (the request's Accept-Language /
 * lang cookie): Thai and English side by side, one function per e-mail. A module of its own, apart
 * from the message catalogue (./messages.ts), because only the server sends e-mails: the browser
 * loads the catalogue on every page and never these texts, nor the order number they print
 * (./order-outcome.ts).
 */
import type { MessageLocale } from './messages';
import { orderNumber } from './order-outcome';

export interface MailText {
  subject: string;
  text: string;
}

/**
 * The one registration e-mail, in the buyer's language. `firstname` / `lastname` arrive already
 * made plain by the server (no links); every link is the server's own. It says how to get back in:
 * a member logs in with the username (or this e-mail) and the password they chose; a buyer without
 * an account opens `link` (their orders and courses, no password, until it expires) and may set a
 * password there.
 */
export function welcomeMail(
  locale: MessageLocale,
  p: { site: string; firstname: string; lastname: string; username?: string | null; nonMember: boolean; link: string; linkDays: number; shopUrl: string },
): MailText {
  if (locale === 'en') {
    const how = p.nonMember
      ? [
          'You bought without an account, so you have no password to remember.',
          `To see your orders and reach your courses, open this link (it works for ${p.linkDays} days):`,
          p.link,
          '',
          `After that, go to the course page at ${p.shopUrl}, choose "Send me a sign-in link" and enter this e-mail address: we send a new link.`,
          'Once signed in you can set a password to log in the usual way.',
        ]
      : [
          `To log in: your username is ${p.username ?? ''} (or use this e-mail address) with the password you chose. We never e-mail passwords.`,
          `Log in on any course page or at ${p.shopUrl}/cart.`,
          '',
          `Confirm this address and open your orders (the link works for ${p.linkDays} days):`,
          p.link,
        ];
    return { subject: `Welcome to ${p.site}`, text: [`Hello ${p.firstname} ${p.lastname},`, '', 'Your registration is complete.', '', ...how, '', `Welcome to ${p.site}.`].join('\n') };
  }
  const how = p.nonMember
    ? [
        'คุณซื้อแบบไม่สมัครสมาชิก จึงไม่ต้องจำรหัสผ่าน',
        `ดูคำสั่งซื้อและเข้าเรียนคอร์สของคุณได้ที่ลิงก์นี้ (ใช้ได้ ${p.linkDays} วัน):`,
        p.link,
        '',
        `หลังจากนั้น ไปที่หน้าคอร์สที่ ${p.shopUrl} เลือก "ส่งลิงก์เข้าสู่ระบบให้ฉัน" แล้วกรอกอีเมลนี้ เราจะส่งลิงก์ใหม่ให้`,
        'เมื่อเข้าสู่ระบบแล้ว คุณตั้งรหัสผ่านเพื่อเข้าสู่ระบบตามปกติได้',
      ]
    : [
        `วิธีเข้าสู่ระบบ: ชื่อผู้ใช้ของคุณคือ ${p.username ?? ''} (หรือใช้อีเมลนี้) กับรหัสผ่านที่คุณตั้งไว้ เราไม่ส่งรหัสผ่านทางอีเมล`,
        `เข้าสู่ระบบได้ที่หน้าคอร์สใดก็ได้ หรือที่ ${p.shopUrl}/cart`,
        '',
        `ยืนยันอีเมลนี้และดูคำสั่งซื้อของคุณ (ลิงก์ใช้ได้ ${p.linkDays} วัน):`,
        p.link,
      ];
  return { subject: `ยินดีต้อนรับสู่ ${p.site}`, text: [`สวัสดีคุณ ${p.firstname} ${p.lastname}`, '', 'สมัครสมาชิกเรียบร้อยแล้ว', '', ...how, '', `ยินดีต้อนรับสู่ ${p.site}`].join('\n') };
}

/** The e-mail with a sign-in link ("send me a sign-in link"); the link is the server's own. */
export function signInLinkMail(locale: MessageLocale, p: { site: string; firstname: string; link: string; minutes: number }): MailText {
  if (locale === 'en') {
    return {
      subject: `Your sign-in link for ${p.site}`,
      text: [`Hello ${p.firstname},`, '', `Open this link to sign in to ${p.site} (it works once, for ${p.minutes} minutes):`, p.link, '', 'If you did not ask for it, ignore this e-mail: nothing changes.'].join('\n'),
    };
  }
  return {
    subject: `ลิงก์เข้าสู่ระบบ ${p.site}`,
    text: [`สวัสดีคุณ ${p.firstname}`, '', `เปิดลิงก์นี้เพื่อเข้าสู่ระบบ ${p.site} (ใช้ได้ครั้งเดียว ภายใน ${p.minutes} นาที):`, p.link, '', 'หากคุณไม่ได้ขอ ไม่ต้องทำอะไร ไม่มีอะไรเปลี่ยนแปลง'].join('\n'),
  };
}

/** The login details e-mail (sendRegistrationEmail). */
export function loginDetailsMail(locale: MessageLocale, p: { site: string; firstname: string; lastname: string; username: string }): MailText {
  // No password in any e-mail: the buyer is reminded of the username and that the password is the one they chose.
  if (locale === 'en') {
    return { subject: `Your login for ${p.site}`, text: `Hello ${p.firstname} ${p.lastname},\n\nUsername: ${p.username}\nPassword: the one you chose when you registered (we never e-mail passwords)\n\nYour login for ${p.site}.` };
  }
  return { subject: `ข้อมูลเข้าสู่ระบบ ${p.site}`, text: `สวัสดีคุณ ${p.firstname} ${p.lastname}\n\nชื่อผู้ใช้: ${p.username}\nรหัสผ่าน: รหัสที่คุณตั้งไว้ตอนสมัคร (เราไม่ส่งรหัสผ่านทางอีเมล)\n\nข้อมูลเข้าสู่ระบบ ${p.site}` };
}

/** The payment-notice e-mail (sendPaymentOrderEmail); `amount` already formatted, `when` Thai local time. */
export function paymentNoticeMail(
  locale: MessageLocale,
  p: { orderId: number; fullname: string; amount: string; bank: string | null; account: string | null; when: string; tel: string | null },
): MailText {
  const dash = (v: string | null) => v ?? '-';
  if (locale === 'en') {
    const subject = `Payment notice, order ${orderNumber(p.orderId)}`;
    return {
      subject,
      text: [subject, `Name: ${p.fullname}`, `Amount: ${p.amount}`, `From bank: ${dash(p.bank)}`, `To account: ${dash(p.account)}`, `Transferred at: ${p.when} (Thailand time)`, `Phone: ${dash(p.tel)}`, '', 'We will check and confirm your payment shortly.'].join('\n'),
    };
  }
  const subject = `แจ้งชำระเงิน คำสั่งซื้อ ${orderNumber(p.orderId)}`;
  return {
    subject,
    text: [subject, `ชื่อ: ${p.fullname}`, `จำนวนเงิน: ${p.amount}`, `ธนาคารต้นทาง: ${dash(p.bank)}`, `บัญชีปลายทาง: ${dash(p.account)}`, `วันเวลาที่โอน: ${p.when} (เวลาประเทศไทย)`, `โทรศัพท์: ${dash(p.tel)}`, '', 'เจ้าหน้าที่จะตรวจสอบและยืนยันการชำระเงินโดยเร็ว'].join('\n'),
  };
}

// --- documents (paid e-mail) ---

/**
 * The paid e-mail: the order is paid and its documents are attached as PDF. `amount` already
 * formatted; `documents` are the attached documents' titles and numbers in the same language.
 */
export function paidOrderMail(locale: MessageLocale, p: { orderId: number; amount: string; documents: { title: string; number: string }[]; link: string }): MailText {
  const list = p.documents.map((d) => `- ${d.title} ${d.number}`);
  if (locale === 'en') {
    const subject = `Payment received, order ${orderNumber(p.orderId)}`;
    return { subject, text: [subject, `Amount: ${p.amount}`, '', 'Attached (PDF):', ...list, '', `Your orders and documents: ${p.link}`].join('\n') };
  }
  const subject = `ได้รับชำระเงินแล้ว คำสั่งซื้อ ${orderNumber(p.orderId)}`;
  return { subject, text: [subject, `จำนวนเงิน: ${p.amount}`, '', 'เอกสารแนบ (PDF):', ...list, '', `คำสั่งซื้อและเอกสารของคุณ: ${p.link}`].join('\n') };
}
