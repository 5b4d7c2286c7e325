/** Asking for a new staff password in a terminal, for set-password and hash-password. */
import { stdin, stdout } from 'node:process';
import { passwordProblem } from '../password-policy.ts';

/** Reads one line from the terminal with echo turned off. */
function askHidden(question: string): Promise<string> {
  return new Promise((resolve, reject) => {
    if (!stdin.isTTY) {
      reject(new Error('set-password needs an interactive terminal'));
      return;
    }
    // Echo off before the prompt shows: a fast typist (or a script answering the prompt) must
    // never have the first characters echoed.
    stdin.setRawMode(true);
    stdout.write(question);
    stdin.resume();
    stdin.setEncoding('utf8');
    let answer = '';
    const onData = (chunk: string) => {
      for (const char of chunk) {
        if (char === '\r' || char === '\n') {
          stdin.setRawMode(false);
          stdin.pause();
          stdin.off('data', onData);
          stdout.write('\n');
          resolve(answer);
          return;
        }
        if (char === '\u0003') {
          stdin.setRawMode(false);
          stdout.write('\n');
          process.exit(130);
        }
        if (char === '\u007f' || char === '\b') answer = answer.slice(0, -1);
        else answer += char;
      }
    };
    stdin.on('data', onData);
  });
}

/** Asks twice, without echo, and returns the password once it is good enough and repeated. */
export async function askNewPassword(): Promise<string> {
  const password = await askHidden('New staff password: ');
  const weakness = passwordProblem(password);
  if (weakness) throw new Error(`The password ${weakness}`);
  if ((await askHidden('Repeat it: ')) !== password) throw new Error('The two passwords differ; nothing was changed');
  return password;
}
