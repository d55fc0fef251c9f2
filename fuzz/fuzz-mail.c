/* libFuzzer target: the mbox splitter and the mail reader. */
#include <stdint.h>
#include <string.h>

#include "../cache.h"
#include "../mail.h"

static int read_each(void *data, const char *mail, size_t len)
{
	struct mail_info mi;

	mail_info_init(&mi);
	mi.keep_brackets = *(int *)data;
	parse_mail(&mi, mail, len);
	/* The description and the patch come from the mail's lines. */
	if (mi.info.len && mi.info.buf[mi.info.len - 1] != '\n')
		__builtin_trap();
	mail_info_release(&mi);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct mbox_options opt = { 0, 0, 1 };
	int flag = size && (data[0] & 1);

	opt.keep_cr = flag;
	opt.mboxrd = size > 1 && (data[1] & 1);
	read_each(&flag, (const char *)data, size);
	split_mbox((const char *)data, size, &opt, read_each, &flag);
	return 0;
}
