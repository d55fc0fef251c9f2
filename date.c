/*
 * date.c: the dates a user may give for commits.  Accepted: git's own
 * "<epoch> <+hhmm>" (with or without a leading '@'), RFC 2822 as
 * `date -R` prints it (the weekday optional), ISO 8601, and the
 * numeric forms "YYYY.MM.DD", "YYYY/MM/DD" and "MM/DD/YYYY" followed by
 * "hh:mm[:ss]".  A date with a zone says exactly which second it means
 * and is converted here, without timegm(3), so that the result does
 * not depend on the C library or on TZ.  A date without a zone is
 * local time in TZ, as git reads it: the zone is then the offset the
 * C library gives for that moment.  Anything else (a date without a
 * time, a field out of range) is refused rather than guessed at,
 * because a commit's date cannot be fixed later without changing its
 * id.
 */
#define _DEFAULT_SOURCE	/* tm_gmtoff */
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "cache.h"

/* 9999-12-31 23:59:59 UTC: a later date has no four-digit year. */
#define MAX_EPOCH 253402300799LL

struct date {
	long long epoch;
	int zone;		/* minutes east of UTC */
};

static const char month_names[12][4] = {
	"Jan", "Feb", "Mar", "Apr", "May", "Jun",
	"Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
};

static const char day_names[7][4] = {
	"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat",
};

static int is_leap(int year)
{
	return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
}

static int days_in_month(int year, int month)
{
	static const int days[12] = {
		31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31,
	};

	return days[month - 1] + (month == 2 && is_leap(year));
}

/* Days from 1970-01-01 to year-month-day (proleptic Gregorian). */
static long long days_from_civil(int year, int month, int day)
{
	long long y = year - (month <= 2);
	long long era = (y >= 0 ? y : y - 399) / 400;
	long long yoe = y - era * 400;
	long long doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 +
			day - 1;
	long long doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;

	return era * 146097 + doe - 719468;
}

/*
 * Read exactly n digits (n > 0) into *val; returns the text after
 * them, or NULL.
 */
static const char *digits(const char *p, int n, int *val)
{
	int v = 0;

	while (n--) {
		if (!isdigit((unsigned char)*p))
			return NULL;
		v = v * 10 + (*p++ - '0');
	}
	*val = v;
	return p;
}

/* One or two digits, as RFC 2822 allows for the day of the month. */
static const char *day_digits(const char *p, int *val)
{
	const char *q = digits(p, 2, val);

	return q ? q : digits(p, 1, val);
}

/*
 * A zone "+hhmm", or with colon "+hh:mm" when allowed.  Hours run to
 * 23 (no zone is further from UTC than 14 hours), minutes to 59.
 */
static const char *parse_zone(const char *p, int colon_ok, int *zone)
{
	int sign, hh, mm;

	if (*p != '+' && *p != '-')
		return NULL;
	sign = *p++ == '-' ? -1 : 1;
	p = digits(p, 2, &hh);
	if (!p)
		return NULL;
	if (colon_ok && *p == ':')
		p++;
	p = digits(p, 2, &mm);
	if (!p || hh > 23 || mm > 59)
		return NULL;
	*zone = sign * (hh * 60 + mm);
	return p;
}

/* The fields of a date as written, before its zone is applied. */
struct fields {
	int year, month, day, hour, min, sec;
};

/* "hh:mm[:ss]"; the hour may have one digit, as git allows. */
static const char *parse_time(const char *p, struct fields *f)
{
	p = day_digits(p, &f->hour);
	if (!p || *p++ != ':')
		return NULL;
	p = digits(p, 2, &f->min);
	if (!p)
		return NULL;
	f->sec = 0;
	if (*p == ':')
		p = digits(p + 1, 2, &f->sec);
	/* A leap second (60) is allowed, as RFC 2822 and git allow it. */
	if (!p || f->hour > 23 || f->min > 59 || f->sec > 60)
		return NULL;
	return p;
}

static int valid_day(const struct fields *f)
{
	return f->month >= 1 && f->month <= 12 && f->day >= 1 &&
	       f->day <= days_in_month(f->year, f->month);
}

/* Seconds from the epoch to the fields read as UTC. */
static long long fields_to_utc(const struct fields *f)
{
	return days_from_civil(f->year, f->month, f->day) * 86400 +
	       f->hour * 3600 + f->min * 60 + f->sec;
}

/*
 * Combine the fields and a zone into d; -1 if out of range.  git's
 * calendar runs from 1970 to 2099: a later year is refused, as git
 * refuses it.
 */
static int make_date(struct date *d, const struct fields *f, int zone)
{
	long long t;

	if (f->year < 1970 || f->year > 2099 || !valid_day(f))
		return -1;
	t = fields_to_utc(f) - zone * 60;
	if (t < 0 || t > MAX_EPOCH)
		return -1;
	d->epoch = t;
	d->zone = zone;
	return 0;
}

/*
 * The fields as local time in TZ, as git reads a date without a zone:
 * the zone is the difference between the fields read as UTC and what
 * mktime(3) makes of them.
 */
static int make_local_date(struct date *d, const struct fields *f)
{
	struct tm tm;
	time_t t;
	long long utc;

	if (f->year < 1970 || f->year > 2099 || !valid_day(f))
		return -1;
	memset(&tm, 0, sizeof(tm));
	tm.tm_year = f->year - 1900;
	tm.tm_mon = f->month - 1;
	tm.tm_mday = f->day;
	tm.tm_hour = f->hour;
	tm.tm_min = f->min;
	tm.tm_sec = f->sec;
	tm.tm_isdst = -1;
	t = mktime(&tm);
	if (t == (time_t)-1)
		return -1;
	utc = fields_to_utc(f);
	d->zone = (int)((utc - (long long)t) / 60);
	if (d->zone <= -24 * 60 || d->zone >= 24 * 60)
		return -1;
	d->epoch = utc - d->zone * 60;
	return d->epoch < 0 ? -1 : 0;
}

/*
 * What may follow the time: nothing (local time), or a zone after one
 * space; ISO 8601 (iso) also allows "Z", "+hh:mm" and no space.
 */
static int finish_date(const char *p, const struct fields *f, int iso,
		       struct date *d)
{
	int zone = 0;

	if (!*p)
		return make_local_date(d, f);
	if (*p == ' ')
		p++;
	else if (!iso)
		return -1;
	if (iso && *p == 'Z')
		p++;
	else
		p = parse_zone(p, iso, &zone);
	if (!p || *p)
		return -1;
	return make_date(d, f, zone);
}

/* "<epoch> <+hhmm>", after an optional '@'. */
static int parse_raw(const char *p, struct date *d)
{
	long long t = 0;
	const char *start;

	if (*p == '@')
		p++;
	for (start = p; isdigit((unsigned char)*p); p++) {
		t = t * 10 + (*p - '0');
		if (t > MAX_EPOCH)
			return -1;
	}
	if (p == start || *p++ != ' ')
		return -1;
	p = parse_zone(p, 0, &d->zone);
	if (!p || *p)
		return -1;
	d->epoch = t;
	return 0;
}

static int lookup_name(const char *p, const char (*names)[4], int nr)
{
	int i;

	for (i = 0; i < nr; i++)
		if (!strncasecmp(p, names[i], 3))
			return i;
	return -1;
}

/* The day of the week of a date, 0 for Sunday (1970-01-01: Thursday). */
static int week_day(long long days)
{
	return (int)(((days % 7) + 7 + 4) % 7);
}

/*
 * RFC 2822: "[Day, ]D Mon YYYY hh:mm[:ss][ +hhmm]".  A day name must
 * be the right one: a wrong name means the rest may be wrong too.
 */
static int parse_rfc2822(const char *p, struct date *d)
{
	struct fields f;
	int wday = -1;

	if (isalpha((unsigned char)*p)) {
		wday = lookup_name(p, day_names, 7);
		if (wday < 0 || p[3] != ',')
			return -1;
		p += 4;
		while (*p == ' ')
			p++;
	}
	p = day_digits(p, &f.day);
	if (!p || *p++ != ' ')
		return -1;
	f.month = lookup_name(p, month_names, 12) + 1;
	if (!f.month || p[3] != ' ')
		return -1;
	p = digits(p + 4, 4, &f.year);
	if (!p || *p++ != ' ')
		return -1;
	p = parse_time(p, &f);
	if (!p || finish_date(p, &f, 0, d) < 0)
		return -1;
	if (wday >= 0 &&
	    week_day(days_from_civil(f.year, f.month, f.day)) != wday)
		return -1;
	return 0;
}

/* "YYYY<sep>M<sep>D" (month and day of one or two digits). */
static const char *parse_ymd(const char *p, char sep, struct fields *f)
{
	p = digits(p, 4, &f->year);
	if (!p || *p++ != sep)
		return NULL;
	p = day_digits(p, &f->month);
	if (!p || *p++ != sep)
		return NULL;
	return day_digits(p, &f->day);
}

/* "M/D/YYYY", the American order git reads for slashes. */
static const char *parse_mdy(const char *p, struct fields *f)
{
	p = day_digits(p, &f->month);
	if (!p || *p++ != '/')
		return NULL;
	p = day_digits(p, &f->day);
	if (!p || *p++ != '/')
		return NULL;
	return digits(p, 4, &f->year);
}

/*
 * ISO 8601: "YYYY-MM-DD", 'T' or ' ', "hh:mm[:ss]", then the zone
 * ("Z", "+hhmm" or "+hh:mm", optionally after one space) or nothing.
 */
static int parse_iso8601(const char *p, struct date *d)
{
	struct fields f;

	p = parse_ymd(p, '-', &f);
	if (!p || (*p != 'T' && *p != ' '))
		return -1;
	p = parse_time(p + 1, &f);
	if (!p)
		return -1;
	return finish_date(p, &f, 1, d);
}

/* "YYYY.MM.DD", "YYYY/MM/DD" or "MM/DD/YYYY", then " hh:mm[:ss]". */
static int parse_numeric(const char *p, struct date *d)
{
	struct fields f;
	const char *q;

	q = parse_ymd(p, '.', &f);
	if (!q)
		q = parse_ymd(p, '/', &f);
	if (!q)
		q = parse_mdy(p, &f);
	if (!q || *q != ' ')
		return -1;
	q = parse_time(q + 1, &f);
	if (!q)
		return -1;
	return finish_date(q, &f, 0, d);
}

static const char *format_date(const struct date *d)
{
	static char buf[48];
	int zone = d->zone < 0 ? -d->zone : d->zone;

	snprintf(buf, sizeof(buf), "%lld %c%02d%02d", d->epoch,
		 d->zone < 0 ? '-' : '+', zone / 60, zone % 60);
	return buf;
}

const char *parse_date(const char *date)
{
	struct date d;

	if (!parse_raw(date, &d) || !parse_iso8601(date, &d) ||
	    !parse_rfc2822(date, &d) || !parse_numeric(date, &d))
		return format_date(&d);
	return NULL;
}

const char *now_date(void)
{
	struct date d;
	struct tm tm;
	time_t now = time(NULL);

	d.epoch = now;
	d.zone = 0;
	if (localtime_r(&now, &tm))
		d.zone = tm.tm_gmtoff / 60;
	return format_date(&d);
}
