# lib-corrupt.sh: a store made wrong on purpose, for the tests of the
# readers that check every object (t4108, t7067).

# loose REPO ID: the file of the loose object ID in REPO.
loose() {
	echo "$1/.git/objects/$(echo $2 | sed "s|^..|&/|")"
}

# swap REPO ID OTHER: ID's file now holds OTHER's object (a valid
# object of the same type, not ID's content).
swap() {
	chmod u+w "$(loose $1 $2)" &&
	cp "$(loose $1 $3)" "$(loose $1 $2)"
}
