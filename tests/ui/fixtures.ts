/** Course page data as the loader hands it to the page (shapes of openapi.yaml). */
import type { CoursePageData } from '../../src/features/course/loader';
import type { SessionUser } from '../../machines/shared/api';
import { student as modelStudent } from '../machines/models/fixtures';
import { defaultSiteSettings } from '../../server/db/seed';
import { registerFormOf } from '../../domain/forms/registration';

/** The logged-in student of the machine models, as the session hands it to the page. */
export const student: SessionUser = modelStudent;

export function plan(id: number, courseId: number, price: number, extra: Record<string, unknown> = {}) {
  return {
    id,
    course_id: courseId,
    name: `แผน ${id}`,
    plan_type: 'Period' as const,
    term: 1,
    term_unit: 'Year(s)' as const,
    term_2: null,
    term_unit_2: null,
    price,
    price_usd: null,
    pricing_type: 'default' as const,
    status_show: 1 as const,
    free_for: null,
    free_course_ids: '',
    buy_course_free: false,
    need_approval: false,
    is_default: false,
    is_for_member: false,
    ...extra,
  };
}

export function pageData(over: { statuses?: Record<number, string>; layout?: 1 | 2 | 3 | 4 | null; registration?: boolean | null; defaultPrice?: number | null; plans?: ReturnType<typeof plan>[]; owned?: number[] | null; description?: string } = {}): CoursePageData {
  const plans = over.plans ?? [plan(11, 1, 199000, { is_default: true }), plan(12, 1, 299000, { name: 'สมาชิก', is_for_member: true })];
  return {
    course: {
      id: 1,
      name: 'คอร์สภาษาอังกฤษเพื่อการสื่อสาร',
      link_path: '1-english-for-communication',
      course_type: 'Online',
      description_html: over.description ?? '<p>เรียนภาษาอังกฤษ</p>',
      image: '/uploads/e.jpg',
      preview_video: { url: 'https://www.youtube.com/watch?v=abcdefgh', type: 'youtube', picture_url: '/uploads/e.jpg' },
      instructor: { id: 1, firstname: 'อาจารย์สมศรี', lastname: 'ใจดี', image: null, biography: null },
      sections: [{ id: 1, name: 'บทนำ', location: 0, lectures: [{ id: 1, name: 'แนะนำคอร์ส', content_type: 'video', preview: true, video_length: 125 }] }],
      seats_available: null,
      start_reg_date: null,
      end_reg_date: null,
      buy_course_free: false,
      is_course_access_right: false,
      access_group_ids: [],
      layout_course_detail: over.layout ?? null,
      is_layout_course_registration: over.registration ?? null,
      default_price: over.defaultPrice === undefined ? 199000 : over.defaultPrice,
      default_price_usd: null,
      meta_title: 'คอร์สภาษาอังกฤษ',
      meta_description: 'เรียนออนไลน์',
      og_image: '/uploads/e.jpg',
    },
    // The demo shop's settings with a shorter form: no nickname, address or picture, no user groups.
    settings: {
      ...defaultSiteSettings(),
      title: 'โรงเรียนออนไลน์',
      registerForm: registerFormOf({ firstname: 'required', lastname: 'required', nickname: 'off', tel: 'required', address: 'off', image_profile: 'off' }),
      is_student_select_group: false,
    },
    howToBuy: { is_enable_howtobuy: true, description: '<ol><li>เลือกคอร์ส</li></ol>' },
    playlist: null,
    purchase: Promise.resolve({
      plans,
      promotions: [],
      methods: [
        { id: 1, name: 'โอนเงินผ่านธนาคาร', payment_type: 'banktransfer', bankList: [{ id: 1, account_id: '123-4-56789-0', account_name: 'บริษัท', bank: 'KBANK', bank_name: 'ธนาคารกสิกรไทย', prompt_pay_image: null }] },
        { id: 8, name: 'บัตรเครดิต (Omise)', payment_type: 'creditcard' },
        { id: 9, name: 'พร้อมเพย์ (Omise)', payment_type: 'promptpay' },
      ],
      ownedCourseIds: over.owned === undefined ? null : over.owned,
      orderStatuses: over.statuses ?? {},
      customLabels: [{ id: 1, type_label: 'inputtext', label: 'โรงเรียน (School)', order_label: 1, required: 1, item_list: [] }],
      userGroups: [],
    }),
  } as unknown as CoursePageData;
}
