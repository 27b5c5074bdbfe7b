-- The change feed (server/db/change-feed.ts): the rows every request reads and only operators change notify
-- `coinplane_changes` with `<Table>:<scope>` in the changing transaction (delivered on commit), whoever changes them —
-- admin API, CLI or psql — so every process drops its cached copies (server/db/cached-read.ts). The scope is the column
-- the caches are keyed by (TG_ARGV[0]); an update that moves a row to another scope notifies both.
CREATE FUNCTION "coinplane_notify_change"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  old_scope text;
  new_scope text;
BEGIN
  IF TG_OP <> 'INSERT' THEN
    old_scope := to_jsonb(OLD) ->> TG_ARGV[0];
    PERFORM pg_notify('coinplane_changes', TG_TABLE_NAME || ':' || old_scope);
  END IF;
  IF TG_OP <> 'DELETE' THEN
    new_scope := to_jsonb(NEW) ->> TG_ARGV[0];
    IF old_scope IS DISTINCT FROM new_scope THEN
      PERFORM pg_notify('coinplane_changes', TG_TABLE_NAME || ':' || new_scope);
    END IF;
  END IF;
  RETURN NULL;
END;
$$;

-- A new key needs no notification: nothing caches a key that was not found.
CREATE TRIGGER "ApiKey_notify_change" AFTER UPDATE OR DELETE ON "ApiKey"
  FOR EACH ROW EXECUTE FUNCTION "coinplane_notify_change"('hash');

-- A new connection does: "no reviewed connection" is cached too (fail closed until one is connected).
CREATE TRIGGER "ProviderConnection_notify_change" AFTER INSERT OR UPDATE OR DELETE ON "ProviderConnection"
  FOR EACH ROW EXECUTE FUNCTION "coinplane_notify_change"('organizationId');

-- A new organization has no cached copy; its settings change by update.
CREATE TRIGGER "Organization_notify_change" AFTER UPDATE OR DELETE ON "Organization"
  FOR EACH ROW EXECUTE FUNCTION "coinplane_notify_change"('id');
