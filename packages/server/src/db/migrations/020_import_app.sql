-- Attribution of imports (docs/oauth-mcp.md, Attribution): an import asked for with an OAuth
-- app's token records the app, and the worker's member.joined events for it carry the app on.
-- NULL: not asked for through an app.
ALTER TABLE imports ADD COLUMN app_id text;
