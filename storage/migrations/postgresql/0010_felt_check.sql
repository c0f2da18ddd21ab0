-- felt_check(ok, code, detail): true when ok is true, else an error (SQLSTATE FLT01) whose
-- message is code and whose detail is detail. Settlements are written "blind": their checks run
-- in the server against its own rows (SELECT felt_check(h.status = 'in_progress', ...)), so a
-- whole settlement travels in one pipeline. The adapter turns the error into CheckFailed and the
-- storage logic into the refusal it names (storage/holdem.py); the rules stay in Python.
-- SQLite has the same function, registered on each connection (storage/sqlite.py).
CREATE FUNCTION felt_check(ok BOOLEAN, code TEXT, detail TEXT) RETURNS BOOLEAN
    LANGUAGE plpgsql VOLATILE AS $$
BEGIN
    IF ok IS NOT TRUE THEN
        RAISE EXCEPTION USING ERRCODE = 'FLT01', MESSAGE = code, DETAIL = COALESCE(detail, '');
    END IF;
    RETURN TRUE;
END;
$$;
