/** Courses, products, link paths and the video playlist (tag catalogue). */
import { KeepAnswer, SerializedAnswer, type Handlers, type ResponseBodyOf } from '../openapi/router';
import { ApiError } from '../errors';
import {
  courseByLinkPath,
  courseLectureOutline,
  courseSections,
  findCourse,
  findInstructor,
  iso,
  listCatalogue,
  playlistRows,
  relatedCourses,
  plansOfCourses,
  planForApi,
  planForDomain,
  summaries,
  viewerFor,
} from '../repos/catalogue';
import { hasApprovedOrderFor } from '../orders/repository';
import { loadSettings } from '../repos/settings';
import { startingPrice, type PlanViewer } from '../../domain/plans';
import type { Queryable } from '../db/index';

function notFound(what = 'Course'): ApiError {
  return new ApiError(404, 'NOT_FOUND', `${what} not found`);
}

/** Which cached variant of an answer a viewer gets: guest or member, and the shown courses it owns. */
function viewerVariant(viewer: PlanViewer, shown: Iterable<number>): string {
  if (!viewer.ownedCourseIds?.length) return viewer.loggedIn ? 'm' : 'g';
  const owned = new Set(viewer.ownedCourseIds);
  const mine = [...new Set(shown)].filter((id) => owned.has(id)).sort((a, b) => a - b);
  return `${viewer.loggedIn ? 'm' : 'g'}${mine.length > 0 ? `:${mine.join(',')}` : ''}`;
}

type CourseAnswer = ResponseBodyOf<'getCourse'>;

/**
 * GET course's answer for a viewer, from the database, and the course ids it shows (the course
 * and its related lists: a change to any of them changes the answer).
 */
async function courseAnswer(db: Queryable, id: number, viewer: PlanViewer): Promise<{ body: CourseAnswer; deps: number[] }> {
  const c = await findCourse(db, id);
  if (!c || c.is_product) throw notFound();
  // The reads that need only the course run together (one round trip's wait, not ten
  // one after another), then the related lists' summaries together.
  const [planRows, settings, sections, lectures, row, sameTeacherRows, sameGroupRows, bestsellerRows] = await Promise.all([
    plansOfCourses(db, [c.id]),
    loadSettings(db),
    courseSections(db, c.id),
    courseLectureOutline(db, c.id),
    c.instructor_id ? findInstructor(db, c.instructor_id) : Promise.resolve(null),
    c.instructor_id ? relatedCourses(db, c.id, { instructorId: c.instructor_id }) : Promise.resolve([]),
    c.category_id ? relatedCourses(db, c.id, { categoryId: c.category_id }) : Promise.resolve([]),
    relatedCourses(db, c.id, 'bestsellers'),
  ]);
  const plans = planRows.map(planForDomain);
  const instructor = row ? { id: row.id, firstname: row.firstname, lastname: row.lastname, image: row.profile.image ?? null, biography: row.profile.biography ?? null } : null;
  const showTeacher = Boolean(settings.course_teacher && c.instructor_id);
  const showGroup = Boolean(settings.course_group && c.category_id);
  const showBestsellers = Boolean(settings.course_bestseller);
  const [sameTeacher, sameGroup, bestsellers] = await Promise.all([
    showTeacher ? summaries(db, sameTeacherRows, viewer) : null,
    showGroup ? summaries(db, sameGroupRows, viewer) : null,
    showBestsellers ? summaries(db, bestsellerRows, viewer) : null,
  ]);
  const preview = c.preview.url ? { url: c.preview.url, ...(c.preview.type ? { type: c.preview.type } : {}), picture_url: c.preview.picture_url ?? null } : null;
  const body: CourseAnswer = {
    success: true,
    data: {
      id: c.id,
      name: c.name,
      link_path: c.link_path,
      course_type: c.course_type,
      description_html: c.description ?? '',
      image: c.image,
      preview_video: preview,
      instructor,
      sections: sections.map((s) => ({
        id: s.id,
        name: s.name,
        location: s.location,
        lectures: lectures.filter((l) => l.section_id === s.id).map((l) => ({ id: l.id, name: l.name, content_type: l.content_type, preview: l.preview, video_length: l.video_length })),
      })),
      seats_available: c.seats === null ? null : Math.max(0, c.seats),
      start_reg_date: iso(c.start_reg_date),
      end_reg_date: iso(c.end_reg_date),
      buy_course_free: plans.some((p) => p.buy_course_free === true),
      is_course_access_right: c.is_course_access,
      access_group_ids: c.user_group_ids,
      layout_course_detail: (c.layout_course_detail ?? null) as 1 | 2 | 3 | 4 | null,
      is_layout_course_registration: c.is_layout_course_registration,
      default_price: startingPrice(plans, viewer, 'THB'),
      default_price_usd: startingPrice(plans, viewer, 'USD'),
      course_group_id: c.category_id,
      meta_title: c.meta_title ?? c.name,
      meta_description: c.meta_description ?? c.short_description,
      og_image: c.image,
      og_video: c.preview.url ?? null,
      related: {
        ...(sameTeacher ? { same_teacher: sameTeacher } : {}),
        ...(sameGroup ? { same_group: sameGroup } : {}),
        ...(bestsellers ? { bestsellers } : {}),
      },
    },
  };
  const deps = [c.id, ...[sameTeacher, sameGroup, bestsellers].flatMap((list) => (list ?? []).map((x) => x.id))];
  return { body, deps };
}

export const catalogueHandlers: Handlers = {
  async listCourses(req, _reply, ctx) {
    const rows = await listCatalogue(ctx.db, false, req.query.filter, req.query.keyword);
    return { success: true, data: await summaries(ctx.db, rows, await viewerFor(ctx.db, req.user)) };
  },

  async listProducts(req, _reply, ctx) {
    const rows = await listCatalogue(ctx.db, true, req.query.filter, req.query.keyword);
    return { success: true, data: await summaries(ctx.db, rows, await viewerFor(ctx.db, req.user)) };
  },

  async getCourse(req, _reply, ctx) {
    // Served from memory when it can be (server/public-cache.ts). The only per-visitor
    // input is the viewer of the prices (guest or member, and which of the answer's courses the
    // visitor owns): it picks the cached variant. Taken before any read: a change notified while
    // this answer is built keeps it out of the cache.
    const cache = ctx.publicCache;
    const ticket = cache.ticket();
    const key = `course:${req.params.id}`;
    const viewer = await viewerFor(ctx.db, req.user);
    const known = cache.deps(key);
    const hit = known ? cache.get(key, viewerVariant(viewer, known)) : undefined;
    if (hit) return new SerializedAnswer(hit);
    const built = await courseAnswer(ctx.db, req.params.id, viewer);
    return new KeepAnswer(built.body, (json) => cache.put(ticket, key, viewerVariant(viewer, built.deps), built.deps, json));
  },

  async getProduct(req, _reply, ctx) {
    const c = await findCourse(ctx.db, req.params.id);
    if (!c || !c.is_product) throw notFound('Product');
    const plans = await plansOfCourses(ctx.db, [c.id]);
    return {
      success: true,
      data: {
        id: c.id,
        name: c.name,
        link_path: c.link_path,
        meta_title: c.meta_title ?? c.name,
        meta_description: c.meta_description ?? c.short_description,
        image_detail: c.image_detail.length > 0 ? c.image_detail : c.image ? [c.image] : [],
        preview: { videoUrl: c.preview.videoUrl ?? null, pictureUrl: c.preview.pictureUrl ?? c.image },
        priceDetail: plans.filter((p) => p.status_show === 1 && p.pricing_type === 'default').map(planForApi),
        courseDescription: c.description ?? '',
        course_type: c.course_type,
        available_qty: Math.max(0, c.stock ?? 0),
      },
    };
  },

  async getCourseByLinkPath(req, _reply, ctx) {
    const path = req.body.link_path.trim().replace(/^\/+|\/+$/g, '').split('/').pop() ?? '';
    let c = await courseByLinkPath(ctx.db, path);
    if (!c) {
      // The route's id is the part before the first hyphen: resolve it to the canonical path.
      const id = /^(\d+)/.exec(path)?.[1];
      if (id && Number(id) <= 2_147_483_647) c = await findCourse(ctx.db, Number(id));
    }
    if (!c) throw notFound();
    return { success: true, data: { id: c.id, link_path: c.link_path, course_type: c.course_type } };
  },

  async getCourseVideoPlaylist(req, _reply, ctx) {
    const c = await findCourse(ctx.db, req.params.courseId);
    if (!c) throw notFound();
    const access = req.user?.role === 'student' ? await hasApprovedOrderFor(ctx.db, req.user.id, c.id) : false;
    const rows = await playlistRows(ctx.db, c.id);
    return {
      success: true,
      data: rows.map((l) => {
        const open = access || l.preview;
        return {
          sections_id: l.sections_id as number,
          sections_name: l.sections_name as string,
          sections_location: l.sections_location as number,
          upload_video_type: c.upload_video_type,
          lectures_id: l.id as number,
          lectures_name: l.name,
          lectures_content_type: l.content_type as string,
          lectures_content_file: open ? l.content_file : null,
          lectures_content_text: open ? (l.content_text as string | null) : null,
          lectures_preview: l.preview,
          lectures_quiz_id: l.quiz_id as number | null,
          quiz_is_require_all_answer: l.quiz_is_require_all_answer as boolean,
          quiz_is_pass_to_complete: l.quiz_is_pass_to_complete as boolean,
          lectures_homework_id: l.homework_id as number | null,
          check_pass_quiz: l.check_pass_quiz as boolean,
          score_pass_quiz: l.score_pass_quiz as number | null,
          quiz_integrate_type: l.quiz_integrate_type as string | null,
          is_quiz_integrate_not_pass_reset_progress: l.is_quiz_integrate_not_pass_reset_progress as boolean,
          lectures_video_id: l.video_id as number | null,
          name: l.video_name ?? l.name,
          url: open ? l.video_url : null,
          file: open ? (l.content_file ?? l.video_name) : null,
          video_length: l.video_length as number | null,
        };
      }),
    };
  },
};
