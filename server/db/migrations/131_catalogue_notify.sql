-- The public answers cache (server/public-cache.ts) keeps GET course, site settings and
-- how-to-buy in memory. Every table those answers read tells every server process when it
-- changes, whatever wrote it (back office, an order taking a seat, the sweeper giving it back,
-- plain SQL): NOTIFY catalogue_changed with
--   'c:<course id>'  only that course's own data changed (its plans, sections, lectures, or its
--                    seats / stock counters): drop the answers that show that course;
--   '*'              anything else (a course's other columns, which can change which courses are
--                    related to which, settings, an instructor's name or profile): drop everything.
-- NOTIFY is sent at COMMIT (nothing on ROLLBACK), and identical payloads of one transaction are sent
-- once, so a bulk update costs one message per course.
CREATE OR REPLACE FUNCTION catalogue_notify() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  scope text := '*';
BEGIN
  IF TG_LEVEL = 'ROW' THEN
    IF TG_TABLE_NAME = 'courses' THEN
      IF TG_OP = 'UPDATE' AND NEW.id = OLD.id
         AND (to_jsonb(NEW) - 'seats' - 'stock') = (to_jsonb(OLD) - 'seats' - 'stock') THEN
        scope := 'c:' || NEW.id;
      END IF;
    ELSIF TG_TABLE_NAME IN ('pricing_plans', 'sections', 'lectures') THEN
      IF TG_OP = 'INSERT' THEN
        scope := 'c:' || NEW.course_id;
      ELSIF TG_OP = 'DELETE' THEN
        scope := 'c:' || OLD.course_id;
      ELSIF NEW.course_id = OLD.course_id THEN
        scope := 'c:' || NEW.course_id;
      END IF;
    END IF;
  END IF;
  PERFORM pg_notify('catalogue_changed', scope);
  RETURN NULL;
END
$$;

-- Every row change, and TRUNCATE, of the tables the answers read.
DO $$
DECLARE
  t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['courses', 'pricing_plans', 'sections', 'lectures', 'site_settings'] LOOP
    EXECUTE format('DROP TRIGGER IF EXISTS %I ON %I', t || '_notify', t);
    EXECUTE format('CREATE TRIGGER %I AFTER INSERT OR UPDATE OR DELETE ON %I FOR EACH ROW EXECUTE FUNCTION catalogue_notify()', t || '_notify', t);
    EXECUTE format('DROP TRIGGER IF EXISTS %I ON %I', t || '_truncate_notify', t);
    EXECUTE format('CREATE TRIGGER %I AFTER TRUNCATE ON %I FOR EACH STATEMENT EXECUTE FUNCTION catalogue_notify()', t || '_truncate_notify', t);
  END LOOP;
END
$$;

-- Users: only what an answer shows of an instructor (name, picture and biography in profile). A
-- new user cannot be shown before a course points at it (that course write notifies); logins,
-- registrations and profile edits of other fields do not drop the cache.
DROP TRIGGER IF EXISTS users_notify ON users;
CREATE TRIGGER users_notify AFTER UPDATE OF firstname, lastname, profile ON users
  FOR EACH ROW WHEN (OLD.firstname IS DISTINCT FROM NEW.firstname OR OLD.lastname IS DISTINCT FROM NEW.lastname OR OLD.profile IS DISTINCT FROM NEW.profile)
  EXECUTE FUNCTION catalogue_notify();
DROP TRIGGER IF EXISTS users_delete_notify ON users;
CREATE TRIGGER users_delete_notify AFTER DELETE ON users
  FOR EACH ROW EXECUTE FUNCTION catalogue_notify();
DROP TRIGGER IF EXISTS users_truncate_notify ON users;
CREATE TRIGGER users_truncate_notify AFTER TRUNCATE ON users
  FOR EACH STATEMENT EXECUTE FUNCTION catalogue_notify();
