// Small, real files for the attachment checks (ATT-*), built in code so the bytes are visible and need
// no binary fixtures: a 1x1 PNG, a 1x1 GIF89a, a 1x1 baseline JPEG, a one-page PDF, and a few files of
// types the conventions say must be refused. Each is a complete file a decoder accepts, not just a magic number
// (checked when written: file(1) names each type and size; libjpeg decodes the JPEG without warnings, sample 128).
import { crc32, deflateSync } from "node:zlib";

/** One upload: the bytes and the MIME type sent as Content-Type. */
export interface TestFile {
  /** Short name for titles and messages ("a 1x1 PNG"). */
  name: string;
  contentType: string;
  bytes: Buffer;
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typeAndData = Buffer.concat([Buffer.from(type, "ascii"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typeAndData));
  return Buffer.concat([length, typeAndData, crc]);
}

/** A 1x1 opaque RGB PNG of the given colour: signature, IHDR, one zlib-compressed IDAT, IEND. */
export function png1x1(rgb: [number, number, number] = [0x1f, 0x6f, 0xb4]): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(1, 0); // width
  ihdr.writeUInt32BE(1, 4); // height
  ihdr.writeUInt8(8, 8); // bit depth
  ihdr.writeUInt8(2, 9); // colour type: truecolour
  // compression, filter and interlace methods stay 0
  const scanline = Buffer.from([0, ...rgb]); // filter type 0, then one pixel
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk("IHDR", ihdr),
    pngChunk("IDAT", deflateSync(scanline)),
    pngChunk("IEND", Buffer.alloc(0)),
  ]);
}

/** A 1x1 GIF89a: a two-colour global palette, one image of one pixel (LZW minimum code size 2). */
export function gif1x1(): Buffer {
  return Buffer.concat([
    Buffer.from("GIF89a", "ascii"),
    Buffer.from([0x01, 0x00, 0x01, 0x00, 0x80, 0x00, 0x00]), // 1x1 screen, global palette of 2 entries
    Buffer.from([0x1f, 0x6f, 0xb4, 0xff, 0xff, 0xff]), // palette: blue, white
    Buffer.from([0x2c, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00]), // image descriptor at 0,0, 1x1
    Buffer.from([0x02, 0x02, 0x44, 0x01, 0x00]), // LZW: min code size 2; clear, index 0, end of information
    Buffer.from([0x3b]), // trailer
  ]);
}

/**
 * A 1x1 greyscale baseline JPEG (JFIF). One 8x8 block whose samples are all 128: after the level shift every
 * coefficient is 0, so the scan is a DC difference of category 0 and an end-of-block. The Huffman tables
 * hold a single one-bit code each (DC: category 0, AC: EOB), so the entropy-coded data is the bits "00",
 * padded with ones to 0x3F.
 */
export function jpeg1x1(): Buffer {
  const segment = (marker: number, body: number[]) => [0xff, marker, ((body.length + 2) >> 8) & 0xff, (body.length + 2) & 0xff, ...body];
  return Buffer.from([
    0xff,
    0xd8, // SOI
    ...segment(0xe0, [0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00]), // APP0 JFIF 1.1, 1:1
    ...segment(0xdb, [0x00, ...new Array<number>(64).fill(1)]), // DQT: table 0, 8-bit, all ones
    ...segment(0xc0, [0x08, 0x00, 0x01, 0x00, 0x01, 0x01, 0x01, 0x11, 0x00]), // SOF0: 8-bit, 1x1, one component, 1x1 sampling, table 0
    ...segment(0xc4, [0x00, 0x01, ...new Array<number>(15).fill(0), 0x00]), // DHT DC 0: one code of length 1 → category 0
    ...segment(0xc4, [0x10, 0x01, ...new Array<number>(15).fill(0), 0x00]), // DHT AC 0: one code of length 1 → EOB
    ...segment(0xda, [0x01, 0x01, 0x00, 0x00, 0x3f, 0x00]), // SOS: component 1 with tables 0/0, spectral 0..63
    0x3f, // entropy-coded data: DC "0", EOB "0", padding
    0xff,
    0xd9, // EOI
  ]);
}

/** A one-page PDF 1.4 with a correct cross-reference table (offsets computed, not guessed). */
function pdfOnePage(): Buffer {
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 72 72] >>",
  ];
  let text = "%PDF-1.4\n";
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(text, "latin1"));
    text += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(text, "latin1");
  text += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) text += `${String(offset).padStart(10, "0")} 00000 n \n`;
  text += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(text, "latin1");
}

/** Files the specification requires to be accepted (ATT-001). */
export const IMAGE_FILES: TestFile[] = [
  { name: "a 1x1 PNG", contentType: "image/png", bytes: png1x1() },
  { name: "a 1x1 JPEG", contentType: "image/jpeg", bytes: jpeg1x1() },
  { name: "a 1x1 GIF", contentType: "image/gif", bytes: gif1x1() },
];

export const PDF_FILE: TestFile = { name: "a one-page PDF", contentType: "application/pdf", bytes: pdfOnePage() };

/** Files of types outside PNG, JPEG, GIF and PDF, each honestly labelled (ATT-003). */
export const OTHER_TYPE_FILES: TestFile[] = [
  { name: "a plain text file", contentType: "text/plain", bytes: Buffer.from("conformance attachment\n", "utf8") },
  // A DOS stub header ("MZ", e_lfanew = 0x40) and nothing else: labelled as a Windows executable, runs nowhere.
  {
    name: "an executable",
    contentType: "application/x-msdownload",
    bytes: Buffer.concat([Buffer.from("MZ", "ascii"), Buffer.alloc(58), Buffer.from([0x40, 0, 0, 0])]),
  },
  // An image type too: "image/*" is not the rule, PNG, JPEG and GIF are.
  {
    name: "an SVG image",
    contentType: "image/svg+xml",
    bytes: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"/>\n', "utf8"),
  },
];
