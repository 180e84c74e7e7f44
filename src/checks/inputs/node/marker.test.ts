import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { decodePerson, encodePerson, MARKER_WINDOW_BYTES, parseMarkers, scanFileMarkers } from './marker';

const person = { fullName: 'ALEX SPECIMEN', dateOfBirth: '1988-11-30', documentNumber: '123' };
const dir = mkdtempSync(join(tmpdir(), 'idv-marker-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('scenario and person markers', () => {
  it('reads key=value text and PNG keyword/NUL text, ignoring what follows a known code', () => {
    expect(parseMarkers(['..idv-scenario=selfiePhoto.closedEyes\xff\x01'])).toEqual({
      scenario: 'selfiePhoto.closedEyes',
      person: undefined,
    });
    expect(parseMarkers(['idv-scenario\x00documentPhoto.noFaceAB12']).scenario).toBe('documentPhoto.noFace');
    // The longest code wins where one code starts another.
    expect(parseMarkers(['idv-scenario=selfiePhoto.noFace']).scenario).toBe('selfiePhoto.noFace');
    expect(parseMarkers(['idv-scenario=documentPhoto.notACode']).scenario).toBeUndefined();
  });

  it('decodes a base64url person, even with checksum bytes glued to it, and ignores bad ones', () => {
    const encoded = encodePerson(person);
    expect(decodePerson(encoded)).toEqual(person);
    expect(parseMarkers([`idv-person\x00${encoded}Ab9_`]).person).toEqual(person);
    expect(
      parseMarkers([`idv-person=${Buffer.from('{"fullName":1}').toString('base64url')}`]).person,
    ).toBeUndefined();
    expect(parseMarkers(['idv-person=!!!']).person).toBeUndefined();
    expect(
      decodePerson(Buffer.from('{"fullName":"X","dateOfBirth":"30/11/1988"}').toString('base64url')),
    ).toBeUndefined();
  });

  it('looks only at the two ends of a file', async () => {
    const filler = Buffer.alloc(MARKER_WINDOW_BYTES * 2, 0x20);
    const atEnd = join(dir, 'end.bin');
    writeFileSync(atEnd, Buffer.concat([filler, Buffer.from('idv-scenario=voiceVideo.noFace')]));
    expect((await scanFileMarkers(atEnd)).scenario).toBe('voiceVideo.noFace');
    const inMiddle = join(dir, 'middle.bin');
    writeFileSync(inMiddle, Buffer.concat([filler, Buffer.from('idv-scenario=voiceVideo.noFace'), filler]));
    expect((await scanFileMarkers(inMiddle)).scenario).toBeUndefined();
  });
});
