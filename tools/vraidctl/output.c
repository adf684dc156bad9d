// SPDX-License-Identifier: GPL-2.0
/*
 * vraidctl: the output layer: strings from the kernel made safe for a terminal or JSON, and tables.
 */
#include "vraidctl.h"

/* Length of the valid UTF-8 sequence at @s (@n bytes left), 0 if invalid. */
static size_t utf8_seq(const unsigned char *s, size_t n)
{
	unsigned char c = s[0], lo = 0x80, hi = 0xBF;
	size_t len, i;

	if (c < 0x80)
		return 1;
	if (c >= 0xC2 && c <= 0xDF) {
		len = 2;
	} else if (c >= 0xE0 && c <= 0xEF) {
		len = 3;
		lo = c == 0xE0 ? 0xA0 : 0x80;
		hi = c == 0xED ? 0x9F : 0xBF;
	} else if (c >= 0xF0 && c <= 0xF4) {
		len = 4;
		lo = c == 0xF0 ? 0x90 : 0x80;
		hi = c == 0xF4 ? 0x8F : 0xBF;
	} else {
		return 0;
	}
	if (n < len || s[1] < lo || s[1] > hi)
		return 0;
	for (i = 2; i < len; i++)
		if (s[i] < 0x80 || s[i] > 0xBF)
			return 0;
	return len;
}

/*
 * Copy the fixed-size, possibly unterminated kernel string @src (array of
 * @srcsz bytes) into @dst for a terminal: control characters, C1 controls
 * and invalid UTF-8 become '?'.  Returns @dst.
 */
char *tty_str(char *dst, size_t dstsz, const char *src, size_t srcsz)
{
	const unsigned char *s = (const unsigned char *)src;
	size_t n = strnlen(src, srcsz), i = 0, o = 0, l;

	while (i < n) {
		l = utf8_seq(s + i, n - i);
		if (l == 0 || s[i] < 0x20 || s[i] == 0x7f ||
		    (l == 2 && s[i] == 0xC2 && s[i + 1] < 0xA0)) {
			if (o + 2 > dstsz)
				break;
			dst[o++] = '?';
			i += l ? l : 1;
			continue;
		}
		if (o + l + 1 > dstsz)
			break;
		memcpy(dst + o, s + i, l);
		o += l;
		i += l;
	}
	dst[o] = '\0';
	return dst;
}

/* Write @src (at most @srcsz bytes, NUL-terminated or not) as a JSON string. */
static void json_str(const char *src, size_t srcsz)
{
	const unsigned char *s = (const unsigned char *)src;
	size_t n = strnlen(src, srcsz), i = 0, l;

	putchar('"');
	while (i < n) {
		unsigned char c = s[i];

		l = utf8_seq(s + i, n - i);
		if (c == '"' || c == '\\') {
			printf("\\%c", c);
		} else if (c == '\n') {
			fputs("\\n", stdout);
		} else if (c == '\t') {
			fputs("\\t", stdout);
		} else if (c < 0x20 || c == 0x7f || l == 0) {
			printf("\\u%04x", c);
		} else {
			fwrite(s + i, 1, l, stdout);
			i += l;
			continue;
		}
		i++;
	}
	putchar('"');
}

/* ---- tables ------------------------------------------------------------- */

/* Start a new row; returns its cells or NULL (out of memory). */
char (*table_row(struct table *t))[TCELL]
{
	char (*r)[TMAXCOL][TCELL] = realloc(t->row, (t->nrow + 1) * sizeof(*r));

	if (!r)
		return NULL;
	t->row = r;
	memset(r[t->nrow], 0, sizeof(r[t->nrow]));
	return r[t->nrow++];
}

/* Terminal columns of a UTF-8 string (one per code point). */
static size_t width(const char *s)
{
	size_t w = 0;

	for (; *s; s++)
		w += ((unsigned char)*s & 0xC0) != 0x80;
	return w;
}

void table_print(const struct table *t)
{
	size_t w[TMAXCOL] = { 0 }, r, i, pad;

	for (i = 0; i < t->ncol; i++) {
		w[i] = width(t->head[i]);
		for (r = 0; r < t->nrow; r++)
			if (width(t->row[r][i]) > w[i])
				w[i] = width(t->row[r][i]);
	}
	for (r = 0; r <= t->nrow; r++) {
		for (i = 0; i < t->ncol; i++) {
			const char *s = r ? t->row[r - 1][i] : t->head[i];

			pad = w[i] - width(s);
			if (t->right[i])
				printf("%*s%s", (int)pad, "", s);
			else if (i + 1 < t->ncol)
				printf("%s%*s", s, (int)pad, "");
			else
				fputs(s, stdout);
			fputs(i + 1 < t->ncol ? "  " : "\n", stdout);
		}
	}
}

/* ---- JSON ----------------------------------------------------------------- */

/*
 * A writer of compact JSON to standard output: the caller says what comes
 * (objects, arrays, keys and values) in order, the writer puts the commas
 * and the quotes.  Admin-guide "JSON output" says what each command
 * writes; the key order is the order of the calls.
 */
static void json_sep(struct json *j, const char *key)
{
	if (j->depth && j->depth <= JSON_DEPTH && j->count[j->depth - 1]++)
		putchar(',');
	if (key)
		printf("\"%s\":", key);
}

static void json_open(struct json *j, const char *key, char c)
{
	json_sep(j, key);
	putchar(c);
	if (j->depth < JSON_DEPTH)
		j->count[j->depth] = 0;
	j->depth++;
}

static void json_close(struct json *j, char c)
{
	putchar(c);
	j->depth--;
	if (!j->depth)
		putchar('\n');
}

void json_begin_object(struct json *j, const char *key)
{
	json_open(j, key, '{');
}

void json_end_object(struct json *j)
{
	json_close(j, '}');
}

void json_begin_array(struct json *j, const char *key)
{
	json_open(j, key, '[');
}

void json_end_array(struct json *j)
{
	json_close(j, ']');
}

void json_string(struct json *j, const char *key, const char *s, size_t max)
{
	json_sep(j, key);
	json_str(s, max);
}

void json_u64(struct json *j, const char *key, uint64_t v)
{
	json_sep(j, key);
	printf("%llu", (unsigned long long)v);
}

void json_bool(struct json *j, const char *key, bool v)
{
	json_sep(j, key);
	fputs(v ? "true" : "false", stdout);
}

void json_null(struct json *j, const char *key)
{
	json_sep(j, key);
	fputs("null", stdout);
}

void json_fixed(struct json *j, const char *key, double v, int decimals)
{
	json_sep(j, key);
	printf("%.*f", decimals, v);
}

void json_permille(struct json *j, const char *key, unsigned int p)
{
	json_sep(j, key);
	printf("%u.%u", p / 10, p % 10);
}

/* "/dev/NAME" of a name from the kernel (not NUL-terminated if full), or "" */
void json_dev(struct json *j, const char *key, const char *name,
		     size_t namesz)
{
	char dev[5 + VRAID_DEVNAME_LEN + 1] = "";

	if (strnlen(name, namesz))
		snprintf(dev, sizeof(dev), "/dev/%.*s",
			 (int)strnlen(name, namesz), name);
	json_string(j, key, dev, sizeof(dev));
}
