-- A version's reference is made right after the save, by the instance that saved it. Until it
-- is stored, reference_due_by says how long other instances may wait for it (a visual check that
-- reaches another instance compares with it rather than making a reference of its own); cleared
-- when the reference is stored or its render failed. NULL: nobody is making one.
ALTER TABLE template_versions ADD COLUMN reference_due_by timestamptz;
