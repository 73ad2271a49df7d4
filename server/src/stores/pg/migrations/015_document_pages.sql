-- A stored document's page count (issue 30, the Pages column of the admin's documents screen).
-- NULL for documents kept before it was recorded, and when the quick count could not read the file.
ALTER TABLE documents ADD COLUMN pages integer;
