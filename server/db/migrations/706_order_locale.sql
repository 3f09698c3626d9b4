-- The language the buyer used when ordering ('th' | 'en', from the lang cookie / Accept-Language
-- of the createOrder request): the paid e-mail and the documents attached to it are written in it
-- (server/documents/mail.ts). Orders made before this column read as Thai.
ALTER TABLE orders ADD COLUMN locale text NOT NULL DEFAULT 'th' CHECK (locale IN ('th', 'en'));
