package ocitest

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"strconv"
)

// SparseLayer is a gzipped tar of files (names) of size bytes each that
// are all a hole: GNU sparse files of PAX format 1.0, which Go's tar
// reader reads as regular files of size bytes while the layer holds a few
// hundred bytes per file (archive/tar cannot write them: they are written
// block by block).
func SparseLayer(size int64, names ...string) []byte {
	var tarball bytes.Buffer
	for _, name := range names {
		pax := paxRecords(map[string]string{
			"GNU.sparse.major": "1", "GNU.sparse.minor": "0",
			"GNU.sparse.name": name, "GNU.sparse.realsize": strconv.FormatInt(size, 10),
		})
		tarball.Write(ustar("PaxHeaders/"+name, 'x', int64(len(pax))))
		tarball.Write(padded(pax))
		sparseMap := padded([]byte("0\n")) // no data: the whole file is a hole
		tarball.Write(ustar("GNUSparseFile.0/"+name, '0', int64(len(sparseMap))))
		tarball.Write(sparseMap)
	}
	tarball.Write(make([]byte, 1024)) // the end of the archive
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(tarball.Bytes())
	zw.Close()
	return gz.Bytes()
}

// paxRecords encodes PAX records ("<length> key=value\n", the length
// counting itself), keys in a fixed order.
func paxRecords(records map[string]string) []byte {
	var b bytes.Buffer
	for _, k := range []string{"GNU.sparse.major", "GNU.sparse.minor", "GNU.sparse.name", "GNU.sparse.realsize"} {
		rec := " " + k + "=" + records[k] + "\n"
		n := len(rec) + 1
		for len(strconv.Itoa(n))+len(rec) != n {
			n++
		}
		b.WriteString(strconv.Itoa(n) + rec)
	}
	return b.Bytes()
}

// ustar is a ustar header block.
func ustar(name string, typeflag byte, size int64) []byte {
	h := make([]byte, 512)
	copy(h[0:100], name)
	copy(h[100:108], "0000644\x00")
	copy(h[108:116], "0000000\x00")
	copy(h[116:124], "0000000\x00")
	copy(h[124:136], fmt.Sprintf("%011o\x00", size))
	copy(h[136:148], "00000000000\x00")
	h[156] = typeflag
	copy(h[257:265], "ustar\x0000")
	copy(h[148:156], "        ")
	sum := 0
	for _, c := range h {
		sum += int(c)
	}
	copy(h[148:156], fmt.Sprintf("%06o\x00 ", sum))
	return h
}

// padded is data padded with zeros to a whole number of 512-byte blocks.
func padded(data []byte) []byte {
	return append(data, make([]byte, (512-len(data)%512)%512)...)
}
