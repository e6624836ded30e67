-- Registrations per client address, kept for a day: the store refuses more than a few new
-- accounts from one address (an IPv6 client by its /64) in 24 hours. Rows older than a day are
-- deleted whenever an account registers, so the table holds one day of registrations at most.
-- Plain SQL that PostgreSQL accepts as is.
CREATE TABLE registrations (
    -- The address as text (`203.0.113.7`, or an IPv6 /64 as `2001:db8:1:2::`).
    address       TEXT   NOT NULL,
    registered_at BIGINT NOT NULL
);
CREATE INDEX registrations_by_address ON registrations (address, registered_at);
CREATE INDEX registrations_by_time ON registrations (registered_at);
