-- Facts about this database and the server that uses it (schema created, last start).
-- Kept to portable SQL so the same migration runs on SQLite and PostgreSQL.
CREATE TABLE server_meta (
    key        TEXT    NOT NULL PRIMARY KEY,
    value      TEXT    NOT NULL,
    updated_at BIGINT  NOT NULL
);
