/*
 * date.c: the dates a user may give for commits.  Only forms that say
 * exactly which second they mean are accepted: git's own
 * "<epoch> <+hhmm>" (with or without a leading '@'), RFC 2822 as
 * `date -R` prints it, and ISO 8601 with a zone.  Anything else, a
 * date without a zone or with a field out of range, is refused rather
 * than guessed at, because a commit's date cannot be fixed later
 * without changing its id.
 *
 * The calendar arithmetic is done here rather than with timegm(3), so
 * that the result does not depend on the C library or on TZ.
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

/* "hh:mm:ss"; RFC 2822 also allows "hh:mm" (seconds_optional). */
static const char *parse_time(const char *p, int seconds_optional,
			      int *hour, int *min, int *sec)
{
	p = digits(p, 2, hour);
	if (!p || *p++ != ':')
		return NULL;
	p = digits(p, 2, min);
	if (!p)
		return NULL;
	*sec = 0;
	if (*p == ':')
		p = digits(p + 1, 2, sec);
	else if (!seconds_optional)
		return NULL;
	/* A leap second (60) is allowed, as RFC 2822 and git allow it. */
	if (!p || *hour > 23 || *min > 59 || *sec > 60)
		return NULL;
	return p;
}

/* Combine broken-down local time and zone into d; -1 if out of range. */
static int make_date(struct date *d, int year, int month, int day,
		     int hour, int min, int sec, int zone)
{
	long long t;

	if (year < 1970 || month < 1 || month > 12 || day < 1 ||
	    day > days_in_month(year, month))
		return -1;
	t = days_from_civil(year, month, day) * 86400 + hour * 3600 +
	    min * 60 + sec - zone * 60;
	if (t < 0 || t > MAX_EPOCH)
		return -1;
	d->epoch = t;
	d->zone = zone;
	return 0;
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
 * RFC 2822: "[Day, ]D Mon YYYY hh:mm[:ss] +hhmm".  A day name must be
 * the right one: a wrong name means the rest may be wrong too.
 */
static int parse_rfc2822(const char *p, struct date *d)
{
	int wday = -1, day, month, year, hour, min, sec, zone;

	if (isalpha((unsigned char)*p)) {
		wday = lookup_name(p, day_names, 7);
		if (wday < 0 || p[3] != ',')
			return -1;
		p += 4;
		while (*p == ' ')
			p++;
	}
	p = day_digits(p, &day);
	if (!p || *p++ != ' ')
		return -1;
	month = lookup_name(p, month_names, 12) + 1;
	if (!month || p[3] != ' ')
		return -1;
	p = digits(p + 4, 4, &year);
	if (!p || *p++ != ' ')
		return -1;
	p = parse_time(p, 1, &hour, &min, &sec);
	if (!p || *p++ != ' ')
		return -1;
	p = parse_zone(p, 0, &zone);
	if (!p || *p)
		return -1;
	if (make_date(d, year, month, day, hour, min, sec, zone) < 0)
		return -1;
	if (wday >= 0 &&
	    week_day(days_from_civil(year, month, day)) != wday)
		return -1;
	return 0;
}

/*
 * ISO 8601: "YYYY-MM-DD", 'T' or ' ', "hh:mm:ss", then the zone:
 * "Z", or "+hhmm" / "+hh:mm", optionally after one space.
 */
static int parse_iso8601(const char *p, struct date *d)
{
	int year, month, day, hour, min, sec, zone = 0;

	p = digits(p, 4, &year);
	if (!p || *p++ != '-')
		return -1;
	p = digits(p, 2, &month);
	if (!p || *p++ != '-')
		return -1;
	p = digits(p, 2, &day);
	if (!p || (*p != 'T' && *p != ' '))
		return -1;
	p = parse_time(p + 1, 0, &hour, &min, &sec);
	if (!p)
		return -1;
	if (*p == ' ')
		p++;
	if (*p == 'Z')
		p++;
	else
		p = parse_zone(p, 1, &zone);
	if (!p || *p)
		return -1;
	return make_date(d, year, month, day, hour, min, sec, zone);
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
	    !parse_rfc2822(date, &d))
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
