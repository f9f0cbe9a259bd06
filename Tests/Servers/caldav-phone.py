#!/usr/bin/python3
"""Acts as the phone in the CalDAV sync tests, with Debian's python3-caldav (an
independent client): lists a task list's items as JSON, and completes, deletes or
edits an item, as Reminders or Tasks.org would.

  caldav-phone.py URL USER PASSWORD CA LIST list
  caldav-phone.py URL USER PASSWORD CA LIST complete|delete UID
  caldav-phone.py URL USER PASSWORD CA LIST edit UID [summary=T] [due=YYYYMMDD] [description=T]
  caldav-phone.py URL USER PASSWORD CA LIST add UID SUMMARY       (an item triage did not make)
  caldav-phone.py URL USER PASSWORD CA LIST token                  (the list's sync-token)
"""
import datetime
import json
import re
import sys

import caldav
import icalendar


def find(principal, name):
    for cal in principal.calendars():
        if cal.name == name:
            return cal
    sys.exit(f"no list {name!r}")


def alarms(component):
    out = []
    for alarm in component.walk("VALARM"):
        out.append({
            "action": str(alarm.get("ACTION", "")),
            "trigger": alarm.get("TRIGGER").to_ical().decode() if alarm.get("TRIGGER") else None,
            "proximity": str(alarm.get("PROXIMITY")) if alarm.get("PROXIMITY") else None,
            "apple_proximity": str(alarm.get("X-APPLE-PROXIMITY")) if alarm.get("X-APPLE-PROXIMITY") else None,
        })
    return out


def raw_property(text, name):
    """The value of the first NAME line of the VTODO as written (the icalendar
    module splits a geo: URI at its comma)."""
    unfolded = re.sub(r"\r?\n[ \t]", "", text)
    for line in unfolded.splitlines():
        if line.upper().startswith(name + ";") or line.upper().startswith(name + ":"):
            return line
    return None


def fetch(todo):
    """The item's text exactly as the server has it (python-caldav hands back a
    re-serialisation once it parsed an item, which drops the longitude of
    X-APPLE-STRUCTURED-LOCATION)."""
    raw = todo.client.request(str(todo.url)).raw
    return raw.decode() if isinstance(raw, bytes) else raw


def describe(todo):
    raw = fetch(todo)
    c = todo.icalendar_component
    due = c.get("DUE")
    geo = c.get("GEO")
    return {
        "uid": str(c.get("UID")),
        "href": str(todo.url.path),
        "summary": str(c.get("SUMMARY", "")),
        "description": str(c.get("DESCRIPTION", "")),
        "status": str(c.get("STATUS", "")),
        "completed": c.get("COMPLETED") is not None,
        "due": due.to_ical().decode() if due else None,
        "geo": [geo.latitude, geo.longitude] if geo else None,
        "location": str(c.get("LOCATION")) if c.get("LOCATION") else None,
        "apple_location": raw_property(raw, "X-APPLE-STRUCTURED-LOCATION"),
        "alarms": alarms(c),
    }


def main():
    url, user, password, ca, name, command = sys.argv[1:7]
    args = sys.argv[7:]
    client = caldav.DAVClient(url, username=user, password=password, ssl_verify_cert=ca)
    cal = find(client.principal(), name)
    if command == "list":
        print(json.dumps(sorted((describe(t) for t in cal.todos(include_completed=True)), key=lambda d: d["uid"])))
        return
    if command == "token":
        body = '<d:propfind xmlns:d="DAV:"><d:prop><d:sync-token/></d:prop></d:propfind>'
        raw = client.propfind(str(cal.url), body, 0).raw
        raw = raw.decode() if isinstance(raw, bytes) else raw
        print(re.search(r"<[^>]*sync-token[^>]*>([^<]+)<", raw).group(1))
        return
    if command == "add":
        uid, summary = args
        cal.save_todo(f"BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//phone//EN\r\nBEGIN:VTODO\r\nUID:{uid}\r\n"
                      f"DTSTAMP:20260101T000000Z\r\nSUMMARY:{summary}\r\nEND:VTODO\r\nEND:VCALENDAR\r\n")
        return
    uid = args[0]
    todo = cal.todo_by_uid(uid)
    if command == "complete":
        todo.complete()
    elif command == "delete":
        todo.delete()
    elif command == "edit":
        # On the text, as a phone keeps what it does not change (the icalendar
        # module would drop the longitude of X-APPLE-STRUCTURED-LOCATION).
        text = re.sub(r"\r?\n[ \t]", "", fetch(todo)).replace("\r\n", "\n")
        lines = text.split("\n")
        start = lines.index("BEGIN:VTODO")
        stamp = datetime.datetime.now(datetime.timezone.utc).strftime("%Y%m%dT%H%M%SZ")
        changes = {"LAST-MODIFIED": "LAST-MODIFIED:" + stamp}
        for pair in args[1:]:
            key, value = pair.split("=", 1)
            key = key.upper()
            if key == "DUE":
                changes[key] = "DUE;VALUE=DATE:" + value
            else:
                changes[key] = key + ":" + value.replace("\\", "\\\\").replace(",", "\\,").replace(";", "\\;").replace("\n", "\\n")
        depth = 0
        kept = []
        for i, line in enumerate(lines):
            if line.startswith("BEGIN:"):
                depth += 1
            if line.startswith("END:"):
                depth -= 1
            name = re.split("[;:]", line, 1)[0].upper()
            if i > start and depth == 2 and name in changes:
                continue  # a property of the VTODO itself, not of an alarm
            kept.append(line)
        at = kept.index("BEGIN:VTODO") + 1
        kept[at:at] = list(changes.values())
        response = todo.client.put(str(todo.url), "\r\n".join(kept) + "\r\n", {"Content-Type": "text/calendar; charset=utf-8"})
        if response.status not in (200, 201, 204):
            sys.exit(f"PUT answered {response.status}")
    else:
        sys.exit(f"unknown command {command}")


main()
