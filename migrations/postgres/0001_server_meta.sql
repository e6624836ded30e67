-- PostgreSQL: the same table as ../0001_server_meta.sql (portable SQL).
CREATE TABLE server_meta (
    key        TEXT    NOT NULL PRIMARY KEY,
    value      TEXT    NOT NULL,
    updated_at BIGINT  NOT NULL
);
